#include "judge/bounds.h"

#include <map>

#include "base/source_text.h"
#include "judge/request_model.h"

namespace vkp {
namespace {

bool writes(const TraceEvent& e) {
    return e.kind == TraceEventKind::Write || e.kind == TraceEventKind::Atomic;
}

std::string lineText(uint32_t line) {
    return line ? " (line " + std::to_string(line) + ")" : "";
}

// The scalars of a variable, by name: "floats".
std::string scalarsName(const TraceVariableInfo& v) {
    return std::string(elementKindName(v.decl.elementType.value_or(ElementKind::Float))) + "s";
}

// A buffer read through a vector view (`vec4 a4[]`), whose indices count the buffer's scalars.
bool vectorView(const TraceVariableInfo& v) {
    return !v.decl.shared && v.decl.elementWidth > 1;
}

std::string vectorName(const TraceVariableInfo& v) {
    return vectorKindName(v.decl.elementType.value_or(ElementKind::Float), v.decl.elementWidth);
}

// "length 37"; for a vector view "8 floats: 2 vec4s" or "10 floats: 2 whole vec4s and 2 more".
std::string lengthText(const TraceVariableInfo& v) {
    if (!vectorView(v)) return "length " + std::to_string(v.length);
    uint64_t width = v.decl.elementWidth, whole = v.length / width, rest = v.length % width;
    return std::to_string(v.length) + " " + scalarsName(v) + ": " + std::to_string(whole) +
           (rest ? " whole " : " ") + vectorName(v) + "s" +
           (rest ? " and " + std::to_string(rest) + " more" : "");
}

// The line declaring the view; 0 where the trace has no source.
uint32_t declarationLine(const Trace& t, const TracedVariable& v) {
    return uint32_t(bindingDeclarationLine(t.source, v.binding, v.name));
}

// A whole vector of a view that starts inside the buffer and ends past it: the case's length is
// not a multiple of the view's width (1 to width - 1 of its scalars are inside).
std::string straddleText(const Trace& t, uint64_t inv, const TraceEvent& e, uint32_t start) {
    const TraceVariableInfo& v = t.variables[e.variable];
    uint32_t width = v.decl.elementWidth;
    std::string element = v.decl.name + "[" + std::to_string(start / width) + "]";
    uint32_t declared = declarationLine(t, v.decl);
    std::string view = "binding " + std::to_string(v.decl.binding) + " ('" + v.decl.name +
                       (declared ? "', line " + std::to_string(declared) : "'") + ")";
    // What is left inside: "a4[37].x", "a4[37].x and .y", "a4[37].x, .y and .z".
    uint64_t left = v.length - start;
    std::string inside = traceCellName(t, e.variable, start);
    for (uint64_t k = 1; k < left; ++k)
        inside += std::string(k + 1 < left ? ", ." : " and .") + "xyzw"[k];
    std::string scalar = elementKindName(v.decl.elementType.value_or(ElementKind::Float));
    return invocationName(t.launch, inv) + " " + (writes(e) ? "writes " : "reads ") + element +
           lineText(e.line) + ", which runs past the end of the buffer: " + view + " is " +
           (writes(e) ? "written" : "read") + " as " + vectorName(v) +
           ", but this case's buffer has " + std::to_string(v.length) + " " + scalarsName(v) +
           ", not a multiple of " + std::to_string(width) + ", so only " + inside +
           (left == 1 ? " is" : " are") + " inside it; " + (writes(e) ? "write" : "read") +
           (left == 1 ? " that " : " those ") +
           (left == 1 ? scalar : std::to_string(left) + " " + scalar + "s") + " on " +
           (left == 1 ? "its" : "their") + " own behind a guard";
}

Finding describe(const Trace& t, uint64_t inv, const TraceEvent& e) {
    const TraceVariableInfo& v = t.variables[e.variable];
    // A whole element of a vector view: named as the vector. (A record that says otherwise, as
    // a hostile case file's may, is named as a scalar.)
    uint32_t width = v.decl.elementWidth, component = vectorComponentOf(e.extra);
    bool whole = vectorView(v) && vectorWidthOf(e.extra) == width && width <= 4 &&
                 component < width && component <= e.index;
    uint32_t start = whole ? e.index - component : e.index;
    Finding f{FindingKind::OutOfBounds, ""};
    if (whole && start < v.length) {
        f.message = straddleText(t, inv, e, start);
    } else {
        std::string cell = whole ? v.decl.name + "[" + std::to_string(start / width) + "]"
                                 : traceCellName(t, e.variable, e.index);
        f.message = invocationName(t.launch, inv) + " " + (writes(e) ? "writes " : "reads ") +
                    cell + lineText(e.line) + ", past the end of " + v.decl.name + " (" +
                    lengthText(v) + ")";
    }
    f.line = e.line;
    f.threads = {inv};
    f.variable = static_cast<int>(e.variable);
    f.index = e.index;
    return f;
}

} // namespace

std::vector<Finding> boundsFindings(const Trace& t) {
    struct Seen {
        uint64_t count = 0;
        Finding first;
    };
    std::map<std::pair<uint32_t, uint32_t>, Seen> byVarLine;
    for (uint64_t inv = 0; inv < t.threads.size(); ++inv) {
        bool counted = false; // the vector access under way already has its count
        for (const TraceEvent& e : t.threads[inv]) {
            if (e.variable >= t.variables.size() || e.kind == TraceEventKind::Barrier) continue;
            bool continues = continuesVector(e);
            if (!continues) counted = false;
            if (e.index < t.variables[e.variable].length || (continues && counted)) continue;
            counted = true;
            Seen& s = byVarLine[{e.variable, e.line}];
            if (s.count++ == 0) s.first = describe(t, inv, e);
        }
    }
    std::vector<Finding> out;
    for (auto& [key, s] : byVarLine) {
        s.first.occurrences = s.count;
        if (s.count > 1)
            s.first.message += "; " + std::to_string(s.count) + " such accesses at this line";
        out.push_back(std::move(s.first));
    }
    return out;
}

} // namespace vkp
