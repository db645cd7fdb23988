// `bench:page --layers`: the page's compositor layers after the edits, from the DevTools
// protocol's LayerTree domain: why each exists, what it holds and how many drawing operations its
// picture has. Unlike times, these do not move with the machine's load, so two versions of the
// page can be compared by them on a noisy machine. A typed edit rebuilds every layer's place in
// the frame (Layerize); the operations of the layers it repaints are converted again.

// Watches the layer tree from now on; returns print(), which lists it as last reported.
export async function watchLayers(cdp) {
  let layers = [];
  cdp.on('LayerTree.layerTreeDidChange', (e) => {
    if (e.layers) layers = e.layers;
  });
  await cdp.send('LayerTree.enable');
  await cdp.send('DOM.getDocument', { depth: -1 });
  return async function print() {
    const rows = [];
    for (const layer of layers) rows.push(await describeLayer(cdp, layer));
    const drawing = rows.filter((r) => r.ops !== null);
    console.log(
      `compositor layers: ${layers.length} (${drawing.length} with pictures, ${drawing.reduce((s, r) => s + r.ops, 0)} drawing operations in all)`,
    );
    for (const r of rows) {
      if (r.ops === null && !r.reasons) continue;
      console.log(
        `  ${String(r.ops ?? '-').padStart(5)} ops  ${r.size.padEnd(11)} paints ${String(r.paints).padStart(3)}  ${r.reasons.padEnd(28)} ${r.node}`,
      );
    }
  };
}

async function describeLayer(cdp, layer) {
  const reasons =
    (await cdp.send('LayerTree.compositingReasons', { layerId: layer.layerId }).catch(() => ({})))
      .compositingReasonIds ?? [];
  let ops = null;
  if (layer.drawsContent && layer.width > 1 && layer.height > 1) {
    const snapshotId = (await cdp.send('LayerTree.makeSnapshot', { layerId: layer.layerId }).catch(() => ({})))
      .snapshotId;
    if (snapshotId) {
      // (a canvas or other foreign layer has no picture to read)
      ops = (await cdp.send('LayerTree.snapshotCommandLog', { snapshotId })).commandLog.length;
      await cdp.send('LayerTree.releaseSnapshot', { snapshotId });
    }
  }
  return {
    ops,
    size: `${layer.width}x${layer.height}`,
    paints: layer.paintCount,
    reasons: reasons.join(','),
    node: await nodeName(cdp, layer.backendNodeId),
  };
}

// The layer's element and the title of the card or section it is in.
async function nodeName(cdp, backendNodeId) {
  if (!backendNodeId) return '';
  try {
    const { object } = await cdp.send('DOM.resolveNode', { backendNodeId });
    const { result } = await cdp.send('Runtime.callFunctionOn', {
      objectId: object.objectId,
      returnByValue: true,
      functionDeclaration: `function () {
        if (!(this instanceof Element)) return this.nodeName;
        const title = this.closest('section, aside')?.querySelector('h2, h3')?.textContent ?? '';
        return this.tagName.toLowerCase() + (this.className && typeof this.className === 'string' ? '.' + this.className.split(' ').join('.') : '') + (title ? ' in "' + title.slice(0, 40) + '"' : '');
      }`,
    });
    return result.value ?? '';
  } catch {
    return '';
  }
}
