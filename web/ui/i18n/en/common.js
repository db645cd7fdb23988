// Messages shared by every part of the page.
export default {
  'common.loading': 'Loading\u2026',
};
