// Code and text that load after the first drawing, once per page (web/ui/model and the panels).

/**
 * One load for the page, shared by every caller: the returned function runs load() the first time
 * and hands every call that promise; a failed load is forgotten, so the next call tries again.
 * Its loaded() is the value once it has arrived, else null.
 */
export function loadOnce(load) {
  let promise = null;
  let value = null;
  const get = () => {
    if (!promise) {
      promise = load().then((v) => {
        value = v;
        return v;
      });
      promise.catch(() => {
        promise = null;
      });
    }
    return promise;
  };
  get.loaded = () => value;
  return get;
}
