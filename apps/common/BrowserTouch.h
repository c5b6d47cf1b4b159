#pragma once
// Touches on the page's canvas as mouse input (browser build only): one finger drags as the
// left button does (stir, paint, orbit), two fingers pinch as the wheel zooms. Window reads
// one TouchFrame per frame and lets it stand in for the mouse while a finger is down, for
// the demos and for Dear ImGui, so every demo's mouse handling serves touch screens too.
namespace texstream::app {

/// The canvas's touches since the last call.
struct TouchFrame {
  bool touching = false;  ///< a finger is on the canvas, or was during this frame
  int fingers = 0;        ///< fingers down now
  bool began = false;     ///< the first finger came down since the last frame
  float x = 0, y = 0;     ///< the first finger, in canvas pixels (origin top left)
  float dx = 0, dy = 0;   ///< its motion since the last frame (one finger down)
  float pinchSteps = 0;   ///< two fingers: their spread since the last frame in wheel steps (+ = apart)
};

/// Listens to the touches on `canvasSelector` ("#canvas"); once per page.
void installTouchInput(const char* canvasSelector);
/// The touches since the last call, and starts the next frame's.
TouchFrame takeTouchFrame();

}  // namespace texstream::app
