#include "BrowserTouch.h"

#include <emscripten/html5.h>

#include <cmath>

namespace texstream::app {

namespace {

// One wheel step zooms the orbit camera by 0.9 (OrbitCamera::zoom): a pinch that spreads
// the fingers by a factor s zooms by the same factor.
const float kStepFactor = 0.9f;

struct TouchState {
  long first = -1;        // identifier of the finger that drags
  int fingers = 0;
  float x = 0, y = 0;     // the first finger now
  float lastX = 0, lastY = 0;  // ... at the last frame
  float spread = 0;       // distance between the first two fingers (0: fewer than two)
  float lastSpread = 0;
  bool began = false, touchedThisFrame = false;
} g_touch;

float spreadOf(const EmscriptenTouchEvent& e) {
  if (e.numTouches < 2) return 0.0f;
  const float dx = float(e.touches[0].targetX - e.touches[1].targetX);
  const float dy = float(e.touches[0].targetY - e.touches[1].targetY);
  return std::sqrt(dx * dx + dy * dy);
}

EM_BOOL onTouch(int type, const EmscriptenTouchEvent* e, void*) {
  TouchState& t = g_touch;
  t.fingers = 0;
  bool firstStillDown = false;
  for (int k = 0; k < e->numTouches; ++k) {
    const EmscriptenTouchPoint& p = e->touches[k];
    const bool lifted = (type == EMSCRIPTEN_EVENT_TOUCHEND || type == EMSCRIPTEN_EVENT_TOUCHCANCEL) && p.isChanged;
    if (lifted) continue;
    ++t.fingers;
    if (t.first < 0) {  // a new first finger: no motion from wherever the last one was
      t.first = p.identifier;
      t.x = t.lastX = float(p.targetX);
      t.y = t.lastY = float(p.targetY);
      t.began = true;
    }
    if (p.identifier == t.first) {
      t.x = float(p.targetX);
      t.y = float(p.targetY);
      firstStillDown = true;
    }
  }
  if (!firstStillDown) t.first = -1;
  const float spread = t.fingers >= 2 ? spreadOf(*e) : 0.0f;
  if (spread > 0 && t.spread == 0) t.lastSpread = spread;  // a pinch starts: no zoom yet
  t.spread = spread;
  t.touchedThisFrame = true;
  return EM_TRUE;  // no scrolling, page zoom or emulated mouse events
}

}  // namespace

void installTouchInput(const char* canvasSelector) {
  emscripten_set_touchstart_callback(canvasSelector, nullptr, EM_TRUE, onTouch);
  emscripten_set_touchmove_callback(canvasSelector, nullptr, EM_TRUE, onTouch);
  emscripten_set_touchend_callback(canvasSelector, nullptr, EM_TRUE, onTouch);
  emscripten_set_touchcancel_callback(canvasSelector, nullptr, EM_TRUE, onTouch);
}

TouchFrame takeTouchFrame() {
  TouchState& t = g_touch;
  TouchFrame f;
  f.touching = t.fingers > 0 || t.touchedThisFrame;
  f.fingers = t.fingers;
  f.began = t.began;
  f.x = t.x;
  f.y = t.y;
  if (t.fingers == 1) {
    f.dx = t.x - t.lastX;
    f.dy = t.y - t.lastY;
  }
  if (t.spread > 0 && t.lastSpread > 0) f.pinchSteps = std::log(t.spread / t.lastSpread) / -std::log(kStepFactor);
  t.lastX = t.x;
  t.lastY = t.y;
  t.lastSpread = t.spread;
  t.began = false;
  t.touchedThisFrame = false;
  return f;
}

}  // namespace texstream::app
