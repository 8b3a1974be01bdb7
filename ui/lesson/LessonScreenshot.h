// LessonScreenshot: the lesson's job for filter-workbench --lesson [STEP] --screenshot: the lesson measures
// on this computer as it does when opened from Help, then goes to STEP; the live step (6) is taken once
// both sides show a rate and have run a few seconds. The picture is the lesson window.
#pragma once

#include "ScreenshotJob.h"

namespace fwb {

class LessonWindow;

// step: 1 to kLessonStepCount, as the user counts them.
ScreenshotJob lessonScreenshotJob(LessonWindow &lesson, int step);

} // namespace fwb
