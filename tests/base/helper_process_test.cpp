// The helper process that runs crash-prone code for the caller: answers, crashes, hangs, restarts.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include "base/helper_process.h"

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
        ::pause();
    std::string text;
    d.str(text);
    e.str("echo: " + text);
    e.u32(static_cast<uint32_t>(::getpid()));
    return e;
}

std::string echo(HelperProcess& h, const std::string& text) {
    Encoder e;
    e.str(text);
    auto answer = h.call(kEcho, e, 600000);
    if (!answer) return "error: " + answer.error().message;
    Decoder d(*answer);
    std::string out;
    uint32_t pid = 0;
    EXPECT_TRUE(d.str(out) && d.u32(pid));
    EXPECT_NE(pid, static_cast<uint32_t>(::getpid())) << "it answers from another process";
    EXPECT_EQ(static_cast<pid_t>(pid), h.pid());
    return out;
}

TEST(HelperProcessTest, AnswersFromOneWarmChild) {
    HelperProcess h(serve);
    EXPECT_EQ(h.pid(), -1) << "started on the first request";
    EXPECT_EQ(echo(h, "one"), "echo: one");
    pid_t first = h.pid();
    EXPECT_GT(first, 0);
    EXPECT_EQ(echo(h, "two"), "echo: two");
    EXPECT_EQ(h.pid(), first);
    EXPECT_EQ(h.restarts(), 0);
}

TEST(HelperProcessTest, AStackOverflowIsAnErrorAndTheNextCallWorks) {
    HelperProcess h(serve);
    EXPECT_EQ(echo(h, "before"), "echo: before");
    auto crashed = h.call(kOverflow, Encoder{}, 600000);
    ASSERT_FALSE(crashed);
    EXPECT_EQ(crashed.error().kind, ErrorKind::WorkerCrashed);
    EXPECT_NE(crashed.error().message.find("signal 11"), std::string::npos)
        << crashed.error().message;
    EXPECT_EQ(h.pid(), -1);
    EXPECT_EQ(echo(h, "after"), "echo: after");
    EXPECT_EQ(h.restarts(), 1);
}

TEST(HelperProcessTest, AChildThatNeverAnswersIsStoppedAtTheLimit) {
    HelperProcess h(serve);
    auto hung = h.call(kHang, Encoder{}, 300); // it never answers, however fast the machine
    ASSERT_FALSE(hung);
    EXPECT_EQ(hung.error().kind, ErrorKind::Timeout);
    EXPECT_NE(hung.error().message.find("300 ms"), std::string::npos) << hung.error().message;
    EXPECT_EQ(echo(h, "again"), "echo: again");
}

TEST(HelperProcessTest, TheChildHoldsNoCopyOfTheCallersOtherPipes) {
    // A pipe of the caller's (like the kernel worker's) must see its end of file when the caller
    // closes its write end, helper or not.
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    HelperProcess h(serve);
    EXPECT_EQ(echo(h, "x"), "echo: x");
    ::close(fds[1]);
    ::fcntl(fds[0], F_SETFL, O_NONBLOCK);
    char c;
    EXPECT_EQ(::read(fds[0], &c, 1), 0) << "end of file; -1 (EAGAIN) means a writer is still open";
    ::close(fds[0]);
}

} // namespace
} // namespace vkp
