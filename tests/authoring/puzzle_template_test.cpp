// The puzzle `vkpuzzles new` writes: both layouts load, with the cases the brief asks for (sizes
// that are not multiples of the workgroup size, several workgroups, `each` data); slugs checked.
#include <gtest/gtest.h>

#include <string>

#include "authoring/puzzle_template.h"
#include "puzzle/puzzle_loader.h"

namespace vkp {
namespace {

TEST(PuzzleTemplate, BothLayoutsLoadWithUnevenCasesOfSeveralWorkgroups) {
    for (bool multiPass : {false, true}) {
        auto files = puzzleTemplate("reverse-double", 3, multiPass);
        ASSERT_EQ(files[0].path, "puzzle.toml");
        EXPECT_EQ(files.size(), multiPass ? 5u : 3u);
        auto p = parsePuzzle(files[0].text, "pack/03-reverse-double/puzzle.toml",
                             "pack/03-reverse-double");
        ASSERT_TRUE(p.ok()) << p.error().str() << "\n" << files[0].text;
        EXPECT_EQ(p->title, "Reverse double");
        EXPECT_EQ(p->order, 3);
        EXPECT_EQ(p->multiPass(), multiPass);
        bool uneven = false, severalGroups = false, hidden = false;
        for (size_t i = 0; i < p->cases.size(); ++i) {
            const TestCase& c = p->cases[i];
            auto data = materializeCase(*p, i);
            ASSERT_TRUE(data.ok()) << data.error().str();
            uint64_t n = data->initial[0].shape.count();
            uneven |= n % c.workgroupSize[0] != 0;
            severalGroups |= n > c.workgroupSize[0];
            hidden |= c.hidden;
            EXPECT_EQ(data->expected[1]->get(0), 2 * data->initial[0].get(n - 1));
        }
        EXPECT_TRUE(uneven && severalGroups && hidden);
        EXPECT_EQ(p->cases[0].data[0]->kind, DataSpec::Kind::Each);
    }
}

TEST(PuzzleTemplate, SlugsAreLowerCaseLettersDigitsAndDashes) {
    for (const char* good : {"reverse", "reverse-double", "scan2", "a-1-b"})
        EXPECT_FALSE(slugError(good)) << good;
    for (const char* bad :
         {"", "Reverse", "rev_double", "-rev", "rev-", "9lives", "a/b", "a b", "../x", "a.b"})
        EXPECT_TRUE(slugError(bad)) << bad;
    EXPECT_TRUE(slugError(std::string(41, 'a')));
}

} // namespace
} // namespace vkp
