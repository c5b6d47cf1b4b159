#include "Download.h"

#include <emscripten/emscripten.h>

namespace texstream::app {

namespace {

// A Blob of the file's bytes behind a temporary link, clicked: the browser's download.
EM_JS(void, offerDownloadOfFile, (const char* path), {
  const name = UTF8ToString(path);
  const url = URL.createObjectURL(new Blob([FS.readFile(name)], {type : "application/octet-stream"}));
  const link = document.createElement("a");
  link.href = url;
  link.download = name.split("/").pop();
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
});

}  // namespace

void offerDownload(const std::string& path) { offerDownloadOfFile(path.c_str()); }

}  // namespace texstream::app
