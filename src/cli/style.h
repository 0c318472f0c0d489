// Terminal styling: colour only on a terminal (and never with NO_COLOR or --color never).
#pragma once

#include <string>

namespace vkp::cli {

class Style {
  public:
    explicit Style(bool color) : m_color(color) {}
    static bool detect(const std::string& when); // "auto", "always", "never"

    std::string pass(const std::string& s) const { return wrap("32", s); }
    std::string fail(const std::string& s) const { return wrap("31;1", s); }
    std::string warn(const std::string& s) const { return wrap("33", s); }
    std::string bold(const std::string& s) const { return wrap("1", s); }
    std::string dim(const std::string& s) const { return wrap("2", s); }
    bool color() const { return m_color; }

  private:
    std::string wrap(const char* code, const std::string& s) const {
        return m_color ? "\x1b[" + std::string(code) + "m" + s + "\x1b[0m" : s;
    }
    bool m_color;
};

} // namespace vkp::cli
