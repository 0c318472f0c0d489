// Vector views of buffers end to end (issue 53): `vkpuzzles check` on kernels that read and write
// the puzzle's floats four at a time (`vec4 a4[]`), through the real compiler and lavapipe. A
// vec4 variant of Coalesced access's solution passes; a vec4 is one read against Zip's
// global_reads = 2, where four float loads are four; a vec4 past the end fails with its cell
// named; one that runs past the end of a length that is no multiple of 4 says so.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "support/check_json.h"
#include "support/cli_run.h"
#include "support/test_env.h"

namespace vkp {
namespace {

using test::checkJson;
using test::CliRun;
using test::vkpuzzles;

std::string data(const std::string& file) {
    return test::sourceDir() + "/tests/data/" + file;
}

// The failing findings of `kind` in case `number` (1-based).
std::vector<nlohmann::json> findingsOf(const nlohmann::json& doc, int number,
                                       const std::string& kind) {
    std::vector<nlohmann::json> out;
    for (const auto& c : doc["cases"])
        if (c["case"] == number)
            for (const auto& f : c["findings"])
                if (f["kind"] == kind && f["fails_case"].get<bool>()) out.push_back(f);
    return out;
}

TEST(VectorViewsCli, AVec4VariantOfTheCoalescedSolutionPasses) {
    nlohmann::json doc = checkJson("coalesced " + data("perf-track/coalesced/vec4.comp"), 0);
    EXPECT_TRUE(doc["pass"].get<bool>()) << doc.dump(2).substr(0, 4000);
    EXPECT_EQ(doc["cases_passed"], doc["cases_total"]);
    // Cases of 185 and 150 floats included: the tail is read through the float view.
    EXPECT_GE(doc["cases_total"].get<int>(), 5);
}

// global_reads counts requests: two vec4s are two reads, the same floats one by one eight.
TEST(VectorViewsCli, AVec4IsOneReadAgainstTheReadLimit) {
    nlohmann::json ok = checkJson("zip " + data("traced/zip-vec4-two-requests.comp"), 0);
    EXPECT_TRUE(ok["pass"].get<bool>()) << ok.dump(2).substr(0, 4000);

    nlohmann::json over = checkJson("zip " + data("traced/zip-vec4-as-four-floats.comp"), 1);
    auto limit = findingsOf(over, 4, "read limit"); // 16 elements: four threads take a vec4
    ASSERT_EQ(limit.size(), 1u) << over["cases"].dump(2).substr(0, 4000);
    EXPECT_NE(limit[0]["message"].get<std::string>().find("makes 8 global reads; the puzzle "
                                                          "allows 2 per thread"),
              std::string::npos)
        << limit[0].dump();
}

TEST(VectorViewsCli, AVec4PastTheEndFailsWithItsCellNamed) {
    nlohmann::json doc =
        checkJson("coalesced " + data("traced/coalesced-vec4-one-past-the-end.comp"), 1);
    // Case 2: a 33 x 40 matrix, 1320 floats, 330 whole vec4s; thread 330 reads the next one.
    auto oob = findingsOf(doc, 2, "out of bounds");
    ASSERT_EQ(oob.size(), 1u) << doc["cases"].dump(2).substr(0, 4000);
    EXPECT_EQ(oob[0]["line"], 16);
    EXPECT_EQ(oob[0]["variable"], "a4");
    EXPECT_EQ(oob[0]["index"], 1320);
    EXPECT_EQ(oob[0]["message"], "thread 330 (local 42 of workgroup 3) reads a4[330] (line 16), "
                                 "past the end of a4 (1320 floats: 330 vec4s)");
}

// Case 1's 5 x 37 matrix has 185 floats: the last vec4 holds one of them. The text report says
// so at the access, naming the view's declaration; the values are right all the same.
TEST(VectorViewsCli, ALengthThatIsNoMultipleOfTheWidthIsSaid) {
    std::string kernel = data("traced/coalesced-vec4-no-tail.comp");
    nlohmann::json doc = checkJson("coalesced " + kernel, 1);
    auto oob = findingsOf(doc, 1, "out of bounds");
    ASSERT_EQ(oob.size(), 2u) << doc["cases"].dump(2).substr(0, 4000); // the load and the store
    for (const auto& c : doc["cases"])
        if (c["case"] == 1) EXPECT_TRUE(c["outputs_match"].get<bool>());
    CliRun text = vkpuzzles("check coalesced " + kernel + " --case 1");
    EXPECT_EQ(text.exit, 1) << text.out;
    EXPECT_NE(text.out.find("thread 46 (local 46 of workgroup 0) reads a4[46] (line 16), which "
                            "runs past the end of the buffer: binding 0 ('a4', line 9) is read "
                            "as vec4, but this case's buffer has 185 floats, not a multiple of "
                            "4, so only a4[46].x is inside it; read that float on its own behind "
                            "a guard"),
              std::string::npos)
        << text.out;
}

} // namespace
} // namespace vkp
