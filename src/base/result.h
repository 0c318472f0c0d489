// Result<T>: a value or an Error. Errors a user can cause are values, never aborts.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace vkp {

// Where an error points: a file and, when known, a 1-based line and column.
struct SourceLocation {
    std::string file; // path as the user gave it
    int line = 0;     // 0 when unknown
    int column = 0;   // 0 when unknown

    // "file:line:column", dropping the parts that are unknown.
    std::string str() const;
};

enum class ErrorKind {
    Usage,         // bad command-line arguments
    PuzzleFile,    // a puzzle definition is malformed
    NotFound,      // a puzzle, file or device that does not exist
    Io,            // a file could not be read or written
    Compile,       // the kernel does not compile
    Interface,     // the kernel's bindings or constants disagree with the puzzle
    Device,        // no usable Vulkan device, or a Vulkan call failed
    DeviceLost,    // VK_ERROR_DEVICE_LOST during a run
    Timeout,       // a dispatch did not finish within its budget
    WorkerCrashed, // the isolated worker process died while running a kernel
    Internal,      // a bug of ours
};

const char* errorKindName(ErrorKind kind);

struct Error {
    ErrorKind kind = ErrorKind::Internal;
    std::string message;  // one sentence a learner can act on
    SourceLocation where; // empty file when the error is not about a file
    int vkResult = 0;     // the VkResult, for Device errors

    // "where: message" (or just the message).
    std::string str() const;
};

template <class T> class Result {
  public:
    Result(T value) : m_data(std::move(value)) {}
    Result(Error error) : m_data(std::move(error)) {}

    bool ok() const { return m_data.index() == 0; }
    explicit operator bool() const { return ok(); }
    T& value() { return std::get<0>(m_data); }
    const T& value() const { return std::get<0>(m_data); }
    T& operator*() { return value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    const Error& error() const { return std::get<1>(m_data); }

  private:
    std::variant<T, Error> m_data;
};

// For functions that return nothing on success.
struct Unit {};
using Status = Result<Unit>;
inline Status okStatus() {
    return Unit{};
}

} // namespace vkp
