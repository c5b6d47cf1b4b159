#include "Recorder.h"

#include "AppOptions.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <vector>

extern char** environ;

namespace texstream::app {

namespace {

std::string lowerExtension(const std::string& path) {
  const std::size_t dot = path.find_last_of('.');
  const std::size_t slash = path.find_last_of('/');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  std::string ext = path.substr(dot);
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return ext;
}

/// ffmpeg's arguments after the input: the encoder for the extension.
std::vector<std::string> encoderArguments(const std::string& extension) {
  // Video encoders want even sides: pad by one where needed.
  const std::string even = "pad=ceil(iw/2)*2:ceil(ih/2)*2";
  if (extension == ".mp4")
    return {"-vf", even, "-c:v", "libx264", "-preset", "veryfast", "-crf", "18", "-pix_fmt", "yuv420p", "-movflags",
            "+faststart"};
  if (extension == ".webm")
    return {"-vf", even, "-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-b:v", "0", "-crf", "32",
            "-pix_fmt", "yuv420p"};
  // GIF: one palette for the whole clip (computed after the last frame), then dithered.
  return {"-vf", "split[a][b];[a]palettegen=stats_mode=full[p];[b][p]paletteuse=dither=bayer:bayer_scale=4", "-loop", "0"};
}

}  // namespace

std::string findFfmpeg() {
  const char* path = std::getenv("PATH");
  if (!path) return "";
  std::stringstream dirs(path);
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    const std::string candidate = (dir.empty() ? std::string(".") : dir) + "/ffmpeg";
    struct stat st {};
    if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(candidate.c_str(), X_OK) == 0)
      return candidate;
  }
  return "";
}

std::string ffmpegMissingMessage() {
  return "ffmpeg not found on PATH: recording pipes the frames to ffmpeg; install it (Debian: apt-get install "
         "ffmpeg; ./run installs it with the other packages)";
}

void requireVideoPath(std::string_view option, const std::string& path) {
  const std::string ext = lowerExtension(path);
  if (ext != ".mp4" && ext != ".webm" && ext != ".gif")
    throw UsageError(std::string(option) + ": invalid value \"" + path +
                     "\": the file name must end in .mp4, .webm or .gif (the video format)");
}

Recorder::Recorder(std::string path, int width, int height, int fps)
    : m_path(std::move(path)), m_width(width), m_height(height), m_fps(fps) {
  if (width < 2 || height < 2 || fps < 1)
    throw std::runtime_error("Recorder(\"" + m_path + "\"): bad clip size " + std::to_string(width) + "x" +
                             std::to_string(height) + " or frame rate " + std::to_string(fps));
  const std::string ffmpeg = findFfmpeg();
  if (ffmpeg.empty()) throw std::runtime_error("recording " + m_path + ": " + ffmpegMissingMessage());

  std::vector<std::string> args = {ffmpeg, "-hide_banner", "-loglevel", "error", "-nostats", "-y",
                                   "-f", "rawvideo", "-pix_fmt", "rgb24",
                                   "-video_size", std::to_string(width) + "x" + std::to_string(height),
                                   "-framerate", std::to_string(fps), "-i", "pipe:0"};
  for (std::string& a : encoderArguments(lowerExtension(m_path))) args.push_back(std::move(a));
  args.push_back(m_path);

  // ffmpeg's messages go to a file, shown when it fails.
  const char* tmp = std::getenv("TMPDIR");
  std::string errorTemplate = std::string(tmp && *tmp ? tmp : "/tmp") + "/texstream-ffmpeg-XXXXXX";
  const int errorFd = ::mkstemp(errorTemplate.data());
  if (errorFd >= 0) {
    m_errorFile = errorTemplate;
    ::close(errorFd);
  }

  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error("recording " + m_path + ": pipe: " + std::strerror(errno));
  ::fcntl(fds[1], F_SETFD, FD_CLOEXEC);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[0], 0);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  if (!m_errorFile.empty()) posix_spawn_file_actions_addopen(&actions, 2, m_errorFile.c_str(), O_WRONLY | O_TRUNC, 0600);
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = -1;
  const int rc = ::posix_spawn(&pid, ffmpeg.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[0]);
  if (rc != 0) {
    ::close(fds[1]);
    throw std::runtime_error("recording " + m_path + ": cannot start " + ffmpeg + ": " + std::strerror(rc));
  }
  m_pid = pid;
  m_pipe = fds[1];
  // A write to a pipe ffmpeg has closed must fail with EPIPE, not end the program.
  ::signal(SIGPIPE, SIG_IGN);
}

Recorder::~Recorder() {
  try {
    finish();
  } catch (const std::exception& e) {
    std::cerr << "texstream: " << e.what() << "\n";
  }
}

std::string Recorder::ffmpegErrors() const {
  if (m_errorFile.empty()) return "";
  std::ifstream in(m_errorFile);
  std::ostringstream text;
  text << in.rdbuf();
  std::string s = text.str();
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  // The last lines say what went wrong.
  if (s.size() > 600) s = "..." + s.substr(s.size() - 600);
  return s;
}

void Recorder::addFrame(const Image& frame) {
  if (m_pipe < 0) throw std::runtime_error("recording " + m_path + ": the clip is already finished");
  const std::uint8_t* data = frame.rgb.data();
  if (frame.width != m_width || frame.height != m_height) {
    m_scaled.resize(std::size_t(m_width) * std::size_t(m_height) * 3);
    for (int y = 0; y < m_height; ++y) {
      const int sy = std::min(frame.height - 1, int((long long)y * frame.height / m_height));
      for (int x = 0; x < m_width; ++x) {
        const int sx = std::min(frame.width - 1, int((long long)x * frame.width / m_width));
        std::memcpy(&m_scaled[3 * (std::size_t(y) * std::size_t(m_width) + std::size_t(x))],
                    &frame.rgb[3 * (std::size_t(sy) * std::size_t(frame.width) + std::size_t(sx))], 3);
      }
    }
    data = m_scaled.data();
  }
  std::size_t left = std::size_t(m_width) * std::size_t(m_height) * 3;
  while (left > 0) {
    const ssize_t n = ::write(m_pipe, data, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const std::string why = std::strerror(errno);
      ::close(m_pipe);
      m_pipe = -1;
      int status = 0;
      ::waitpid(m_pid, &status, 0);
      m_pid = -1;
      const std::string errors = ffmpegErrors();
      throw std::runtime_error("recording " + m_path + ": ffmpeg stopped taking frames (" + why + ")" +
                               (errors.empty() ? std::string() : ": " + errors));
    }
    data += n;
    left -= std::size_t(n);
  }
  ++m_frames;
}

void Recorder::finish() {
  if (m_pid < 0) {
    if (!m_errorFile.empty()) ::unlink(m_errorFile.c_str()), m_errorFile.clear();
    return;
  }
  if (m_pipe >= 0) ::close(m_pipe);
  m_pipe = -1;
  int status = 0;
  while (::waitpid(m_pid, &status, 0) < 0 && errno == EINTR) {
  }
  m_pid = -1;
  const std::string errors = ffmpegErrors();
  if (!m_errorFile.empty()) ::unlink(m_errorFile.c_str()), m_errorFile.clear();
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error("recording " + m_path + ": ffmpeg failed (" +
                             (WIFEXITED(status) ? "exit status " + std::to_string(WEXITSTATUS(status))
                                                : "killed by signal " + std::to_string(WTERMSIG(status))) +
                             ")" + (errors.empty() ? std::string() : ": " + errors));
}

}  // namespace texstream::app
