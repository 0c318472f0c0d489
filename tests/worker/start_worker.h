// A worker process for the worker tests: the vkpuzzles binary in worker mode, on the test device.
#pragma once

#include <gtest/gtest.h>

#include <memory>

#include "support/test_env.h"
#include "worker/worker_runner.h"

namespace vkp::test {

inline std::unique_ptr<worker::WorkerRunner> startWorker() {
    auto w = worker::WorkerRunner::start(VKPUZZLES_BINARY_PATH, deviceOptions());
    EXPECT_TRUE(w.ok()) << (w.ok() ? "" : w.error().str());
    return w.ok() ? std::move(*w) : nullptr;
}

} // namespace vkp::test
