#pragma once
// Recording a demo to a video: frames (Screenshot.h's Image) piped as raw RGB to Debian's
// ffmpeg, which encodes by the file's extension:
//   .mp4  H.264 (libx264, yuv420p: plays everywhere)
//   .webm VP9 (libvpx-vp9)
//   .gif  a palette computed over the whole clip (palettegen + paletteuse), looping
// Native builds only (a browser has no ffmpeg to start); the library never sees any of it.
// A frame of another size than the clip's (the window resized while recording) is scaled
// to it (nearest texel).
#include "Screenshot.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace texstream::app {

/// The ffmpeg executable found on PATH ("" where there is none).
std::string findFfmpeg();
/// "ffmpeg not found on PATH: ..." with how to install it.
std::string ffmpegMissingMessage();
/// Throws UsageError("<option>: invalid value "<path>": why") unless `path` ends in .mp4,
/// .webm or .gif (any case).
void requireVideoPath(std::string_view option, const std::string& path);

class Recorder {
 public:
  /// Starts ffmpeg writing `path` from width x height frames at `fps`; throws
  /// std::runtime_error naming the path when ffmpeg is missing or cannot start.
  Recorder(std::string path, int width, int height, int fps);
  /// Finishes the clip (as finish(); errors go to stderr).
  ~Recorder();
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  /// Sends one frame (scaled to the clip's size where it differs); throws
  /// std::runtime_error with ffmpeg's own message when it has stopped.
  void addFrame(const Image& frame);
  /// Closes the pipe and waits for ffmpeg; throws std::runtime_error with its message when
  /// it failed. Further calls do nothing.
  void finish();

  const std::string& path() const { return m_path; }
  int width() const { return m_width; }
  int height() const { return m_height; }
  int fps() const { return m_fps; }
  long long frames() const { return m_frames; }

 private:
  std::string ffmpegErrors() const;

  std::string m_path, m_errorFile;
  int m_width, m_height, m_fps;
  long long m_frames = 0;
  int m_pipe = -1;
  int m_pid = -1;
  std::vector<std::uint8_t> m_scaled;
};

}  // namespace texstream::app
