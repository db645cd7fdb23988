// Glosario (se mantiene en todo): attention weights = pesos de atención; query/key/value =
// consulta/clave/valor; head = cabeza; mask = máscara; scores = puntuaciones; token = token.
export default {
  'common.loading': 'Cargando\u2026',
};
