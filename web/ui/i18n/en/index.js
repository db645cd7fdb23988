// Every message of the page in English, the source of truth, one file per part of the page (keys start with
// the part's name; explorer-later.js holds the explorer's keys its first drawing does not need).
// See web/ui/model/i18n.js.
import checkpoint from './checkpoint.js';
import checkpointLater from './checkpoint-later.js';
import common from './common.js';
import explorer from './explorer.js';
import explorerLater from './explorer-later.js';
import explorerTrained from './explorer-trained.js';
import inference from './inference.js';
import lessonTabs from './lessonTabs.js';
import lessons from './lessons.js';
import training from './training.js';

export default {
  ...checkpoint,
  ...checkpointLater,
  ...common,
  ...explorer,
  ...explorerLater,
  ...explorerTrained,
  ...inference,
  ...lessonTabs,
  ...lessons,
  ...training,
};
