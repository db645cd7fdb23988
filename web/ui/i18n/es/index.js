// Every message of the page in Spanish, one file per part of the page (keys start with
// the part's name). See web/ui/model/i18n.js.
import checkpoint from './checkpoint.js';
import common from './common.js';
import explorer from './explorer.js';
import inference from './inference.js';
import lessonTabs from './lessonTabs.js';
import lessons from './lessons.js';
import training from './training.js';

export default {
  ...checkpoint,
  ...common,
  ...explorer,
  ...inference,
  ...lessonTabs,
  ...lessons,
  ...training,
};
