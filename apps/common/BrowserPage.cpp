#include "BrowserPage.h"

#include "Download.h"

#include <emscripten/emscripten.h>

#include <exception>
#include <functional>
#include <iostream>
#include <string>

namespace texstream::app {

namespace {

Window* g_window = nullptr;
Demo* g_demo = nullptr;
std::function<void(const std::string&)> g_writeReport;
std::function<FileResult(const std::string&)> g_open;
long long g_frames = 0;

// The page's message line (web/texstream-page.js), where a page has one.
EM_JS(void, showPageMessage, (const char* text, int ok), {
  if (window.texstreamPage && window.texstreamPage.showMessage) window.texstreamPage.showMessage(UTF8ToString(text), !!ok);
});

void report(const FileResult& r) {
  std::cerr << "texstream: " << r.message << "\n";
  showPageMessage(r.message.c_str(), r.ok ? 1 : 0);
}

}  // namespace

void attachToPage(Window& window, Demo& demo, std::function<void(const std::string&)> writeReport,
                  std::function<FileResult(const std::string&)> open) {
  g_window = &window;
  g_demo = &demo;
  g_writeReport = std::move(writeReport);
  g_open = std::move(open);
}

void detachFromPage() {
  g_window = nullptr;
  g_demo = nullptr;
  g_writeReport = nullptr;
  g_open = nullptr;
}

void pageFrameDrawn() { ++g_frames; }

}  // namespace texstream::app

using namespace texstream::app;

extern "C" {

EMSCRIPTEN_KEEPALIVE int texstream_open_file(const char* path) {
  if (!g_demo) return 0;
  FileResult r;
  try {
    r = g_open ? g_open(path ? path : "") : g_demo->openFile(path ? path : "");
  } catch (const std::exception& e) {
    r = {false, std::string(path ? path : "") + ": " + e.what(), ""};
  }
  report(r);
  return r.ok ? 1 : 0;
}

EMSCRIPTEN_KEEPALIVE int texstream_save_result() {
  if (!g_demo) return 0;
  FileResult r;
  try {
    r = g_demo->saveResult("/results");
    if (r.ok) offerDownload(r.path);
  } catch (const std::exception& e) {
    r = {false, std::string("saving the result failed: ") + e.what(), ""};
  }
  report(r);
  return r.ok ? 1 : 0;
}

EMSCRIPTEN_KEEPALIVE void texstream_close() {
  if (g_window) g_window->requestClose();
}

EMSCRIPTEN_KEEPALIVE int texstream_write_report(const char* path) {
  if (!g_writeReport || !path) return 0;
  try {
    g_writeReport(path);
  } catch (const std::exception& e) {
    std::cerr << "texstream: " << e.what() << "\n";
    return 0;
  }
  return 1;
}

EMSCRIPTEN_KEEPALIVE double texstream_frames() { return double(g_frames); }

}  // extern "C"
