// `vkpuzzles check ARGS --json` for the CLI tests: its exit status expected, its output parsed
// (a parse failure is a test failure, with the output).
#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "support/cli_run.h"

namespace vkp::test {

inline nlohmann::json checkJson(const std::string& args, int wantExit) {
    CliRun r = vkpuzzles("check " + args + " --json");
    EXPECT_EQ(r.exit, wantExit) << args << "\n" << r.out;
    auto doc = nlohmann::json::parse(r.out, nullptr, false);
    EXPECT_FALSE(doc.is_discarded()) << r.out;
    return doc;
}

} // namespace vkp::test
