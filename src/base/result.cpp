#include "base/result.h"

namespace vkp {

std::string SourceLocation::str() const {
    std::string s = file;
    if (line > 0) s += ":" + std::to_string(line);
    if (line > 0 && column > 0) s += ":" + std::to_string(column);
    return s;
}

const char* errorKindName(ErrorKind kind) {
    switch (kind) {
    case ErrorKind::Usage:
        return "usage";
    case ErrorKind::PuzzleFile:
        return "puzzle-file";
    case ErrorKind::NotFound:
        return "not-found";
    case ErrorKind::Io:
        return "io";
    case ErrorKind::Compile:
        return "compile";
    case ErrorKind::Interface:
        return "interface";
    case ErrorKind::Device:
        return "device";
    case ErrorKind::DeviceLost:
        return "device-lost";
    case ErrorKind::Timeout:
        return "timeout";
    case ErrorKind::WorkerCrashed:
        return "worker-crashed";
    case ErrorKind::Internal:
        return "internal";
    }
    return "unknown";
}

std::string Error::str() const {
    if (where.file.empty()) return message;
    return where.str() + ": " + message;
}

} // namespace vkp
