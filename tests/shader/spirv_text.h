// SPIR-V as text for the shader tests, without glslang: assemble a module written in SPIR-V
// assembly, disassemble a rewriter's output (friendly names: %uint_0, %_ptr_StorageBuffer_uint,
// the names OpName gives), validate it, and expect patterns in it: regular expressions, each
// matching a line after the line the one before it matched.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <regex>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include <spirv-tools/libspirv.hpp>
#include <spirv/unified1/spirv.hpp11>

namespace vkp::spirv_text {

// How many instructions of `words` (a whole module) have opcode `op`.
inline size_t countOpcode(std::span<const uint32_t> words, spv::Op op) {
    size_t n = 0;
    for (size_t at = 5; at < words.size(); at += words[at] >> spv::WordCountShift)
        n += static_cast<spv::Op>(words[at] & spv::OpCodeMask) == op;
    return n;
}

inline constexpr spv_target_env kEnv = SPV_ENV_VULKAN_1_2; // the compiler's target (SPIR-V 1.5)

// The words of `text`; empty, with the assembler's messages as a test failure, when it is not
// valid SPIR-V assembly.
inline std::vector<uint32_t> assemble(const std::string& text) {
    spvtools::SpirvTools tools(kEnv);
    std::string messages;
    tools.SetMessageConsumer(
        [&](spv_message_level_t, const char*, const spv_position_t& at, const char* message) {
            messages += "line " + std::to_string(at.line + 1) + ": " + message + "\n";
        });
    std::vector<uint32_t> words;
    if (!tools.Assemble(text, &words)) {
        ADD_FAILURE() << "the SPIR-V text does not assemble:\n" << messages;
        words.clear();
    }
    return words;
}

inline std::string disassemble(std::span<const uint32_t> words) {
    spvtools::SpirvTools tools(kEnv);
    std::string text;
    if (!tools.Disassemble(words.data(), words.size(), &text,
                           SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES |
                               SPV_BINARY_TO_TEXT_OPTION_NO_HEADER))
        ADD_FAILURE() << "the words do not disassemble";
    return text;
}

// The validator's messages (Vulkan 1.2 rules); empty when the module is valid.
inline std::string validationErrors(std::span<const uint32_t> words) {
    spvtools::SpirvTools tools(kEnv);
    std::string messages;
    tools.SetMessageConsumer([&](spv_message_level_t, const char*, const spv_position_t&,
                                 const char* message) { messages += std::string(message) + "\n"; });
    bool valid = tools.Validate(words.data(), words.size());
    return valid ? std::string() : messages.empty() ? "invalid" : messages;
}

// Each pattern matches (std::regex_search) a line of `text` after the line the previous pattern
// matched. On failure: the first pattern that found no line, and the text.
inline testing::AssertionResult containsInOrder(const std::string& text,
                                                const std::vector<std::string>& patterns) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    size_t next = 0;
    for (const std::string& pattern : patterns) {
        std::regex re(pattern);
        while (next < lines.size() && !std::regex_search(lines[next], re))
            ++next;
        if (next == lines.size())
            return testing::AssertionFailure()
                   << "no line matches '" << pattern << "' (after the patterns before it) in:\n"
                   << text;
        ++next;
    }
    return testing::AssertionSuccess();
}

// How many lines of `text` match `pattern`.
inline size_t countLines(const std::string& text, const std::string& pattern) {
    std::regex re(pattern);
    std::istringstream in(text);
    size_t n = 0;
    for (std::string line; std::getline(in, line);)
        n += std::regex_search(line, re);
    return n;
}

} // namespace vkp::spirv_text
