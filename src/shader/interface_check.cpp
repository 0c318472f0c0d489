#include "shader/interface_check.h"

#include <regex>
#include <sstream>

namespace vkp {
namespace {

// The first source line matching `pattern`, or 0.
int findLine(const std::string& source, const std::regex& pattern) {
    std::istringstream in(source);
    std::string line;
    for (int n = 1; std::getline(in, line); ++n)
        if (std::regex_search(line, pattern)) return n;
    return 0;
}

int bindingLine(const std::string& source, uint32_t binding) {
    return findLine(source, std::regex("binding\\s*=\\s*" + std::to_string(binding) + "\\b"));
}

class InterfaceChecker {
  public:
    InterfaceChecker(const Puzzle& p, const KernelInterface& k, const std::string& src, const std::string& file)
        : m_p(p), m_k(k), m_src(src), m_file(file) {}

    std::vector<Diagnostic> run() {
        for (const KernelBinding& b : m_k.bindings) checkKernelBinding(b);
        for (const BufferDecl& d : m_p.buffers) checkDeclared(d);
        for (const KernelSpecConstant& c : m_k.specConstants) checkConstant(c.id, c.name);
        checkLocalSize();
        return std::move(m_out);
    }

  private:
    void error(int line, std::string message) {
        m_out.push_back({m_file, line, 0, SeverityKind::Error, std::move(message)});
    }
    static std::string declaration(const BufferDecl& d) {
        return "layout(set = 0, binding = " + std::to_string(d.binding) + ") buffer ... { " +
               elementKindName(d.type) + " " + d.name + "[]; };";
    }
    void checkKernelBinding(const KernelBinding& b) {
        int line = bindingLine(m_src, b.binding);
        std::string what = "binding " + std::to_string(b.binding) + (b.arrayName.empty() ? "" : " ('" + b.arrayName + "')");
        if (b.set != 0) return error(line, what + " is in descriptor set " + std::to_string(b.set) + "; puzzles use set 0");
        const BufferDecl* d = m_p.findBuffer(b.binding);
        if (!d) return error(line, what + " is not one of this puzzle's buffers (" + bufferList() + ")");
        if (!b.storageBuffer)
            return error(line, what + " is a uniform block; '" + d->name + "' must be a storage buffer: " + declaration(*d));
        if (!b.singleRuntimeArray)
            return error(line, what + " must be a block holding exactly one runtime array of " +
                                   elementKindName(d->type) + " (found " + (b.elementTypeText.empty() ? "nothing" : b.elementTypeText) + "): " + declaration(*d));
        if (*b.elementType != d->type)
            error(line, what + " holds " + elementKindName(*b.elementType) + " elements, but the puzzle's buffer '" +
                            d->name + "' holds " + elementKindName(d->type));
    }
    void checkDeclared(const BufferDecl& d) {
        for (const KernelBinding& b : m_k.bindings)
            if (b.binding == d.binding && b.set == 0) return;
        error(0, "the kernel does not declare the puzzle's " + std::string(roleKindName(d.role)) + " buffer '" + d.name +
                     "' (binding " + std::to_string(d.binding) + "): add " + declaration(d));
    }
    void checkConstant(uint32_t id, const std::string& name) {
        int line = findLine(m_src, std::regex("constant_id\\s*=\\s*" + std::to_string(id) + "\\b"));
        if (id < 3) return error(line, "constant_id " + std::to_string(id) + " ('" + name + "') is reserved for the workgroup size; use local_size_" + "xyz"[id] + "_id = " + std::to_string(id) + " or another id");
        for (const ConstantDecl& c : m_p.constants)
            if (c.id == id) return;
        std::string known;
        for (const ConstantDecl& c : m_p.constants) known += (known.empty() ? "" : ", ") + c.name + " = " + std::to_string(c.id);
        error(line, "constant_id " + std::to_string(id) + " ('" + name + "') is not a constant of this puzzle" +
                        (known.empty() ? " (it has none)" : " (its constants: " + known + ")"));
    }
    void checkLocalSize() {
        static const char* axis = "xyz";
        for (int d = 0; d < 3; ++d) {
            if (m_k.localSizeFromSpec[d] && m_k.localSizeSpecIds[d] != uint32_t(d)) {
                error(findLine(m_src, std::regex("local_size_")), std::string("local_size_") + axis[d] + "_id must be " + std::to_string(d) +
                                     " (the case's workgroup size is passed there), not " + std::to_string(m_k.localSizeSpecIds[d]));
                continue;
            }
            if (!m_k.fixedLocalSize[d]) continue;
            for (size_t c = 0; c < m_p.cases.size(); ++c) {
                uint32_t need = m_p.cases[c].workgroupSize[d];
                if (need == *m_k.fixedLocalSize[d]) continue;
                error(findLine(m_src, std::regex("local_size_")),
                      std::string("the kernel fixes local_size_") + axis[d] + " = " + std::to_string(*m_k.fixedLocalSize[d]) +
                          ", but case " + std::to_string(c + 1) + " runs workgroups of " + std::to_string(need) +
                          " in " + axis[d] + ": declare layout(local_size_" + axis[d] + "_id = " + std::to_string(d) + ") in;");
                break;
            }
        }
    }
    std::string bufferList() const {
        std::string s;
        for (const BufferDecl& d : m_p.buffers) s += (s.empty() ? "" : ", ") + d.name + " = " + std::to_string(d.binding);
        return "its bindings: " + s;
    }

    const Puzzle& m_p;
    const KernelInterface& m_k;
    const std::string& m_src;
    const std::string& m_file;
    std::vector<Diagnostic> m_out;
};

} // namespace

std::vector<Diagnostic> checkInterface(const Puzzle& puzzle, const KernelInterface& kernel,
                                       const std::string& source, const std::string& fileName) {
    return InterfaceChecker(puzzle, kernel, source, fileName).run();
}

} // namespace vkp
