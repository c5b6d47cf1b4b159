#pragma once
// What the page around a demo reaches in the program (browser build only): functions the
// page shell (web/texstream-page.js) and the browser tests call, exported from the wasm.
//  - texstream_open_file(path): a file the page wrote into emscripten's file system (dropped
//    onto the page or chosen with its file picker) goes where a file dropped onto a native
//    window goes (the shell's open: a preset .json to Demo::loadSettings, anything else to
//    Demo::openFile); the result goes to the page's message line;
//  - texstream_save_result(): Demo::saveResult into /results, offered as a download;
//  - texstream_close(): ends the run as closing the window does (JSON report, exit code as
//    the page's verdict);
//  - texstream_write_report(path): the run's JSON report so far (as --json writes at the
//    end), while the run goes on (tests read it from the file system);
//  - texstream_frames(): frames drawn so far (tests wait on it).
#include "DemoRunner.h"
#include "Window.h"

#include <functional>
#include <string>

namespace texstream::app {

/// The run the exported functions act on, from its first frame to its end; `writeReport`
/// writes its JSON report to a path, `open` opens a file as a drop onto the window does.
void attachToPage(Window& window, Demo& demo, std::function<void(const std::string&)> writeReport,
                  std::function<FileResult(const std::string&)> open);
void detachFromPage();
/// Counts a drawn frame.
void pageFrameDrawn();

}  // namespace texstream::app
