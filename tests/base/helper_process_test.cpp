// The helper process that runs crash-prone code for the caller: answers, crashes, hangs, restarts.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "base/helper_process.h"
#include "base/os.h"
#include "support/system.h"

namespace vkp {
namespace {

enum : uint32_t { kEcho = 1, kOverflow = 2, kHang = 3 };

// Recursion the optimiser cannot turn into a loop, deeper than any stack: a stack overflow.
int recurse(volatile int* depth) {
    volatile char frame[512];
    frame[0] = static_cast<char>(*depth);
    *depth = *depth + 1;
    if (*depth < 0) return 0; // not before 2^31 frames (a terabyte of stack)
    return recurse(depth) + frame[0];
}

Encoder serve(uint32_t kind, Decoder& d) {
    Encoder e;
    if (kind == kOverflow) {
        volatile int depth = 0;
        e.u32(static_cast<uint32_t>(recurse(&depth)));
    }
    while (kind == kHang)
        std::this_thread::sleep_for(std::chrono::hours(1));
    std::string text;
    d.str(text);
    e.str("echo: " + text);
    e.u32(static_cast<uint32_t>(os::processId()));
    return e;
}

const HelperRegistration kTestHelper{"test-echo", serve};

std::string echo(HelperProcess& h, const std::string& text) {
    Encoder e;
    e.str(text);
    auto answer = h.call(kEcho, e, 600000);
    if (!answer) return "error: " + answer.error().message;
    Decoder d(*answer);
    std::string out;
    uint32_t pid = 0;
    EXPECT_TRUE(d.str(out) && d.u32(pid));
    EXPECT_NE(pid, static_cast<uint32_t>(os::processId())) << "it answers from another process";
    EXPECT_EQ(static_cast<int>(pid), h.pid());
    return out;
}

TEST(HelperProcessTest, AnswersFromOneWarmChild) {
    HelperProcess h("test-echo");
    EXPECT_EQ(h.pid(), -1) << "started on the first request";
    EXPECT_EQ(echo(h, "one"), "echo: one");
    int first = h.pid();
    EXPECT_GT(first, 0);
    EXPECT_EQ(echo(h, "two"), "echo: two");
    EXPECT_EQ(h.pid(), first);
    EXPECT_EQ(h.restarts(), 0);
}

TEST(HelperProcessTest, AStackOverflowIsAnErrorAndTheNextCallWorks) {
    HelperProcess h("test-echo");
    EXPECT_EQ(echo(h, "before"), "echo: before");
    auto crashed = h.call(kOverflow, Encoder{}, 600000);
    ASSERT_FALSE(crashed);
    EXPECT_EQ(crashed.error().kind, ErrorKind::WorkerCrashed);
    // Linux: "it was killed by signal 11 (Segmentation fault)"; Windows: "it crashed (a stack
    // overflow, exception 0xC00000FD)". Wine ends such a process with status 0.
    const std::string& why = crashed.error().message;
    EXPECT_TRUE(why.find("signal 11") != std::string::npos ||
                why.find("stack overflow") != std::string::npos ||
                (test::underWine() && why == "it exited with status 0"))
        << why;
    EXPECT_EQ(h.pid(), -1);
    EXPECT_EQ(echo(h, "after"), "echo: after");
    EXPECT_EQ(h.restarts(), 1);
}

TEST(HelperProcessTest, AChildThatNeverAnswersIsStoppedAtTheLimit) {
    HelperProcess h("test-echo");
    auto hung = h.call(kHang, Encoder{}, 300); // it never answers, however fast the machine
    ASSERT_FALSE(hung);
    EXPECT_EQ(hung.error().kind, ErrorKind::Timeout);
    EXPECT_NE(hung.error().message.find("300 ms"), std::string::npos) << hung.error().message;
    EXPECT_EQ(echo(h, "again"), "echo: again");
}

TEST(HelperProcessTest, TheChildHoldsNoCopyOfTheCallersOtherPipes) {
    // Another child's request pipe (like the kernel worker's) must reach its end when the caller
    // closes its end, though a helper was started after it: the helper holds no copy of it.
    ChildProcess other;
    auto drain = [](PipeEnd& requests, PipeEnd&) { // what "test-echo" does on Windows: serve to EOF
        uint32_t kind = 0;
        Bytes payload;
        while (readFrame(requests, kind, payload)) {
        }
        return 0;
    };
    ASSERT_TRUE(other.startCopy("test-echo", drain));
    HelperProcess h("test-echo");
    EXPECT_EQ(echo(h, "x"), "echo: x");
    other.requests().close();
    // It ends at once; a copy held elsewhere would keep it waiting for ever (then this fails).
    for (int i = 0; i < 6000 && !other.hasEnded(); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    EXPECT_TRUE(other.hasEnded()) << "the other child never saw the end of its requests";
    EXPECT_EQ(other.endText(), "it exited with status 0");
}

} // namespace
} // namespace vkp
