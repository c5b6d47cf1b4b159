#pragma once
// The one handler at the end of every texstream program's main. Whatever escapes the
// program's own handling ends the run with one line naming the program and the input it
// was reading, and an exit code, never an uncaught exception (std::terminate, SIGABRT):
//   int main(int argc, char** argv) {
//     try {
//       ...
//     } catch (...) {
//       return texstream::app::failedMain("texstream-fluid");
//     }
//   }
// Code that reads what a user hands over names it while it reads:
//   app::ReadingInput reading("--preset", path);
// Header-only: the command-line tools that link no app shell (bench, linexpr) use it too.
#include <cstdio>
#include <exception>
#include <new>
#include <optional>
#include <string>
#include <vector>

namespace texstream::app {

/// An input a user handed over: the option that names it ("--preset", "" for a
/// positional one) and the path or text.
struct Input {
  std::string option, name;
  std::string text() const { return option.empty() ? name : option + " " + name; }
};

/// Names the input being read while it lives. An exception that leaves the scope keeps
/// the input named for failedMain; the next ReadingInput forgets it (that failure was
/// handled).
class ReadingInput {
 public:
  ReadingInput(std::string option, std::string name) : m_uncaught(std::uncaught_exceptions()) {
    failed().reset();
    stack().push_back({std::move(option), std::move(name)});
  }
  ~ReadingInput() {
    if (std::uncaught_exceptions() > m_uncaught && !failed()) failed() = stack().back();
    stack().pop_back();
  }
  ReadingInput(const ReadingInput&) = delete;
  ReadingInput& operator=(const ReadingInput&) = delete;

  /// The input an exception left last, else the one being read now, else none.
  static std::optional<Input> current() {
    if (failed()) return failed();
    if (stack().empty()) return std::nullopt;
    return stack().back();
  }

 private:
  static std::vector<Input>& stack() {
    thread_local std::vector<Input> s;
    return s;
  }
  static std::optional<Input>& failed() {
    thread_local std::optional<Input> f;
    return f;
  }
  int m_uncaught;
};

/// Inside a catch block at the end of main: prints "<program>: error while reading
/// <input>: <what>" (the input from ReadingInput; left out where none was being read or
/// the message names it already) and returns `exitCode`.
inline int failedMain(const char* program, int exitCode = 1) {
  std::string what;
  try {
    throw;
  } catch (const std::bad_alloc&) {
    what = "out of memory";
  } catch (const std::exception& e) {
    what = e.what();
  } catch (...) {
#ifdef __EMSCRIPTEN__
    // The browser's main loop leaves main by a JavaScript exception of its own ("unwind").
    throw;
#endif
    what = "an exception that is not a std::exception";
  }
  const std::optional<Input> input = ReadingInput::current();
  const std::string where =
      input && what.find(input->name) == std::string::npos ? " while reading " + input->text() : std::string();
  std::fprintf(stderr, "%s: error%s: %s\n", program, where.c_str(), what.c_str());
  return exitCode;
}

/// The main of a command-line tool that links no app shell (bench, linexpr): `parse` reads
/// the command line and returns the exit code where the run ends there (--help, a usage
/// error); `run` does the work and returns the exit code. A std::exception out of run is a
/// failed run, "<program>: <what>" on stderr and exit code 1; whatever else escapes ends
/// through failedMain.
template <class Parse, class Run>
int toolMain(const char* program, Parse&& parse, Run&& run) {
  try {
    if (const std::optional<int> code = parse()) return *code;
    try {
      return run();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "%s: %s\n", program, e.what());
      return 1;
    }
  } catch (...) {
    return failedMain(program);
  }
}

}  // namespace texstream::app
