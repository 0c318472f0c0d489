// The main of every test binary: GoogleTest's, after serving a helper process when this binary was
// started as one (Windows starts a helper as its own program again: base/helper_process.h).
#include <gtest/gtest.h>

#include "base/helper_process.h"
#include "base/os.h"

int main(int argc, char** argv) {
    if (auto helped = vkp::runHelperIfAsked(vkp::os::arguments(argc, argv))) return *helped;
    testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
