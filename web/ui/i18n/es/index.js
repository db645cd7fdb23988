// Every message of the page in Spanish, one file per part of the page (keys start with
// the part's name). See web/ui/model/i18n.js.
import common from './common.js';
import lessons from './lessons.js';

export default { ...common, ...lessons };
