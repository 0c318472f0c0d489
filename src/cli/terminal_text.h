// What the CLI prints goes through here: text from kernels, puzzle files and file names may hold
// control characters, ANSI escape sequences or NUL bytes that would move the cursor, retitle or
// clear the terminal, or hide what follows. They are shown escaped (\x1b, \x00) instead.
#pragma once

#include <memory>
#include <ostream>
#include <streambuf>
#include <string>
#include <string_view>

namespace vkp::cli {

// `text` with every control character other than newline and tab (C0, DEL, and C1 as UTF-8)
// written as \xNN. With `allowStyle`, the few colour sequences Style writes pass unchanged.
std::string terminalText(std::string_view text, bool allowStyle);

// A stream buffer that sends `terminalText` of each line to `dest` (at a newline or a flush).
class TerminalFilter : public std::streambuf {
  public:
    TerminalFilter(std::streambuf* dest, bool allowStyle)
        : m_dest(dest), m_allowStyle(allowStyle) {}
    ~TerminalFilter() override { sync(); }

  protected:
    int_type overflow(int_type c) override;
    std::streamsize xsputn(const char* s, std::streamsize n) override;
    int sync() override;

  private:
    void emitLine();
    std::streambuf* m_dest;
    bool m_allowStyle;
    std::string m_line; // what has come since the last newline
};

// A status line redrawn in place on stderr (grade's class bar, pack check's mutant count). It
// writes to the raw, unfiltered stream, since its own \r and erase-line sequences must reach the
// terminal, and passes the text through terminalText. Off when stderr is not a terminal.
class ProgressLine {
  public:
    explicit ProgressLine(std::ostream& rawErr);
    bool on() const { return m_on; }
    void show(std::string_view text); // replaces the line
    void clear();                     // erases it

  private:
    std::ostream& m_raw;
    bool m_on;
};

} // namespace vkp::cli
