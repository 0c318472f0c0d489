#include "shader/interface_check.h"

#include <algorithm>
#include <regex>

#include "base/source_text.h"

namespace vkp {
namespace {

// The line declaring `name` at `binding` (two declarations may view one binding).
int declarationLine(const std::string& source, uint32_t binding, const std::string& name) {
    return bindingDeclarationLine(source, binding, name);
}

class InterfaceChecker {
  public:
    InterfaceChecker(const Puzzle& p, const KernelInterface& k, const std::string& src,
                     const std::string& file, size_t kernel)
        : m_puzzle(p), m_interface(k), m_source(src), m_fileName(file), m_kernelIndex(kernel) {}

    std::vector<Diagnostic> run() {
        for (const KernelBinding& b : m_interface.bindings)
            checkKernelBinding(b);
        for (const KernelOtherResource& r : m_interface.otherResources)
            error(declarationLine(m_source, r.binding, r.name),
                  "binding " + std::to_string(r.binding) +
                      (r.name.empty() ? "" : " ('" + r.name + "')") + " is " + r.what +
                      ": a puzzle gives its kernel storage buffers only (" + bufferList() + ")");
        for (size_t b : ownBuffers())
            checkDeclared(m_puzzle.buffers[b]);
        for (const KernelSpecConstant& c : m_interface.specConstants)
            checkConstant(c.id, c.name);
        checkLocalSize();
        checkPush();
        checkVolatileCoherent();
        return std::move(m_diagnostics);
    }

  private:
    void error(int line, std::string message) {
        m_diagnostics.push_back({m_fileName, line, 0, SeverityKind::Error, std::move(message)});
    }
    static std::string declaration(const BufferDecl& d) {
        return "layout(set = 0, binding = " + std::to_string(d.binding) + ") buffer ... { " +
               elementKindName(d.type) + " " + d.name + "[]; };";
    }
    // volatile_coherent rules: each named buffer this kernel binds is declared volatile coherent
    // (a reader polling another workgroup's words would otherwise keep a stale copy).
    void checkVolatileCoherent() {
        for (const RuleDecl& rule : m_puzzle.rules) {
            if (rule.check != RuleCheckKind::VolatileCoherent) continue;
            for (const KernelBinding& b : m_interface.bindings) {
                const BufferDecl* d = m_puzzle.findBuffer(b.binding);
                if (!d || b.set != 0 ||
                    std::find(rule.buffers.begin(), rule.buffers.end(),
                              size_t(d - m_puzzle.buffers.data())) == rule.buffers.end())
                    continue;
                // A volatile buffer is coherent too: some glslang builds decorate it so, others
                // (Debian 12's) leave Coherent out; the rule holds either way.
                if (b.isVolatile) continue;
                std::string lacks = b.coherent ? "volatile" : "volatile coherent";
                error(declarationLine(m_source, b.binding, b.arrayName),
                      "'" + d->name + "' (binding " + std::to_string(b.binding) +
                          ") is not declared " + lacks +
                          ": write `layout(set = 0, binding = " + std::to_string(b.binding) +
                          ") volatile coherent buffer ...`; the "
                          "statement says: \"" +
                          rule.text + "\"");
            }
        }
    }

    void checkKernelBinding(const KernelBinding& b) {
        int line = declarationLine(m_source, b.binding, b.arrayName);
        std::string what = "binding " + std::to_string(b.binding) +
                           (b.arrayName.empty() ? "" : " ('" + b.arrayName + "')");
        if (b.set != 0)
            return error(line, what + " is in descriptor set " + std::to_string(b.set) +
                                   "; puzzles use set 0");
        const BufferDecl* d = m_puzzle.findBuffer(b.binding);
        if (!d)
            return error(line,
                         what + " is not one of this puzzle's buffers (" + bufferList() + ")");
        std::vector<size_t> own = ownBuffers();
        if (std::find(own.begin(), own.end(), size_t(d - m_puzzle.buffers.data())) == own.end())
            return error(line, what + " ('" + d->name + "') is not a buffer of the kernel " +
                                   kernelName() + " (" + bufferList() + ")");
        if (!b.storageBuffer)
            return error(line, what + " is a uniform block; '" + d->name +
                                   "' must be a storage buffer: " + declaration(*d));
        if (!b.singleRuntimeArray)
            return error(line, what + " must be a block holding exactly one runtime array of " +
                                   elementKindName(d->type) + ", " + vectorKindName(d->type, 2) +
                                   " or " + vectorKindName(d->type, 4) + " (found " +
                                   (b.elementTypeText.empty() ? "nothing" : b.elementTypeText) +
                                   ")" + paddedVectorNote(b) + ": " + declaration(*d));
        if (*b.elementType != d->type)
            return error(line, what + " holds " + b.elementTypeText +
                                   " elements, but the puzzle's buffer '" + d->name + "' holds " +
                                   elementKindName(d->type) +
                                   (b.elementWidth > 1
                                        ? ": read it as " + vectorKindName(d->type, b.elementWidth)
                                        : ""));
        // std140 (or an explicit stride) spaces the elements out, where the puzzle's data are
        // packed: every index would read the wrong scalar.
        if (b.arrayStride && b.arrayStride != 4 * b.elementWidth)
            error(line, what + "'s elements lie " + std::to_string(b.arrayStride) +
                            " bytes apart (a std140 layout?), but the puzzle's buffer '" + d->name +
                            "' is packed, one " + b.elementTypeText + " every " +
                            std::to_string(4 * b.elementWidth) +
                            " bytes: declare it std430, a buffer's default");
    }
    // A vec3 array, the vector view a learner tries first for three values, is laid out 16
    // bytes an element: say why it is refused.
    static std::string paddedVectorNote(const KernelBinding& b) {
        const std::string& t = b.elementTypeText;
        if (t.size() < 4 || t.compare(t.size() - 4, 4, "vec3") != 0) return "";
        return "; a buffer pads each " + t + " to 16 bytes, so use " + t.substr(0, t.size() - 1) +
               "4 or " + t.substr(0, t.size() - 1) + "2";
    }
    void checkDeclared(const BufferDecl& d) {
        for (const KernelBinding& b : m_interface.bindings)
            if (b.binding == d.binding && b.set == 0) return;
        error(0, "the kernel does not declare the puzzle's " + std::string(roleKindName(d.role)) +
                     " buffer '" + d.name + "' (binding " + std::to_string(d.binding) + "): add " +
                     declaration(d));
    }
    void checkConstant(uint32_t id, const std::string& name) {
        int line = firstLineMatching(
            m_source, std::regex("constant_id\\s*=\\s*" + std::to_string(id) + "\\b"));
        if (id < 3)
            return error(line, "constant_id " + std::to_string(id) + " ('" + name +
                                   "') is reserved for the workgroup size; use local_size_" +
                                   "xyz"[id] + "_id = " + std::to_string(id) + " or another id");
        for (const ConstantDecl& c : m_puzzle.constants)
            if (c.id == id) return;
        std::string known;
        for (const ConstantDecl& c : m_puzzle.constants)
            known += (known.empty() ? "" : ", ") + c.name + " = " + std::to_string(c.id);
        error(line, "constant_id " + std::to_string(id) + " ('" + name +
                        "') is not a constant of this puzzle" +
                        (known.empty() ? " (it has none)" : " (its constants: " + known + ")"));
    }
    void checkLocalSize() {
        static const char* axis = "xyz";
        for (int d = 0; d < 3; ++d) {
            if (m_interface.localSizeFromSpec[d] &&
                m_interface.localSizeSpecIds[d] != uint32_t(d)) {
                error(firstLineMatching(m_source, std::regex("local_size_")),
                      std::string("local_size_") + axis[d] + "_id must be " + std::to_string(d) +
                          " (the case's workgroup size is passed there), not " +
                          std::to_string(m_interface.localSizeSpecIds[d]));
                continue;
            }
            if (!m_interface.fixedLocalSize[d]) continue;
            for (size_t c = 0; c < m_puzzle.cases.size(); ++c) {
                uint32_t need = m_puzzle.cases[c].workgroupSize[d];
                if (need == *m_interface.fixedLocalSize[d]) continue;
                error(firstLineMatching(m_source, std::regex("local_size_")),
                      std::string("the kernel fixes local_size_") + axis[d] + " = " +
                          std::to_string(*m_interface.fixedLocalSize[d]) + ", but case " +
                          std::to_string(c + 1) + " runs workgroups of " + std::to_string(need) +
                          " in " + axis[d] + ": declare layout(local_size_" + axis[d] +
                          "_id = " + std::to_string(d) + ") in;");
                break;
            }
        }
    }
    std::string bufferList() const {
        std::string s;
        for (size_t b : ownBuffers())
            s += (s.empty() ? "" : ", ") + m_puzzle.buffers[b].name + " = " +
                 std::to_string(m_puzzle.buffers[b].binding);
        return "its bindings: " + s;
    }
    std::vector<size_t> ownBuffers() const {
        if (m_kernelIndex < m_puzzle.kernels.size()) return m_puzzle.kernels[m_kernelIndex].buffers;
        std::vector<size_t> all(m_puzzle.buffers.size());
        for (size_t i = 0; i < all.size(); ++i)
            all[i] = i;
        return all;
    }
    std::string kernelName() const {
        return m_kernelIndex < m_puzzle.kernels.size()
                   ? "'" + m_puzzle.kernels[m_kernelIndex].name + "'"
                   : "";
    }
    // The push-constant block: every member set by every pass of this kernel, uint or int.
    void checkPush() {
        int line = firstLineMatching(m_source, std::regex("push_constant"));
        std::vector<const PassDecl*> passes;
        for (const PassDecl& p : m_puzzle.passes)
            if (p.kernel == m_kernelIndex) passes.push_back(&p);
        if (passes.empty() && !m_interface.push.empty())
            return error(line,
                         "this puzzle sets no push constants; remove the push_constant block");
        for (const KernelPushMember& m : m_interface.push) {
            if (!m.type || *m.type == ElementKind::Float)
                error(line, "push constant '" + m.name + "' is a " + m.typeText +
                                "; passes set uint or int values");
            for (const PassDecl* p : passes)
                if (std::none_of(p->push.begin(), p->push.end(),
                                 [&](const auto& kv) { return kv.first == m.name; }))
                    error(line, "push constant '" + m.name + "' is not set by the pass at " +
                                    p->where.str() + " (it sets: " + pushNames(*p) + ")");
        }
        for (const PassDecl* p : passes)
            for (const auto& kv : p->push) // not a structured binding: clang 15 cannot capture one
                if (const std::string& name = kv.first;
                    std::none_of(m_interface.push.begin(), m_interface.push.end(),
                                 [&](const KernelPushMember& m) { return m.name == name; }))
                    error(line, "the puzzle sets the push constant '" + name +
                                    "', but the kernel does not declare it: add " +
                                    "layout(push_constant) uniform Push { uint " + name + "; };");
    }
    static std::string pushNames(const PassDecl& p) {
        std::string s;
        for (const auto& [name, value] : p.push)
            s += (s.empty() ? "" : ", ") + name;
        return s.empty() ? "nothing" : s;
    }

    const Puzzle& m_puzzle;
    const KernelInterface& m_interface;
    const std::string& m_source;
    const std::string& m_fileName;
    size_t m_kernelIndex = 0;
    std::vector<Diagnostic> m_diagnostics;
};

} // namespace

std::vector<Diagnostic> checkInterface(const Puzzle& puzzle, const KernelInterface& kernel,
                                       const std::string& source, const std::string& fileName,
                                       size_t kernelIndex) {
    return InterfaceChecker(puzzle, kernel, source, fileName, kernelIndex).run();
}

std::optional<Diagnostic> brokenUsesRule(const Puzzle& puzzle,
                                         const std::vector<const KernelInterface*>& kernels,
                                         const std::string& fileName) {
    for (const RuleDecl& rule : puzzle.rules) {
        if (rule.check != RuleCheckKind::Uses) continue;
        if (std::any_of(kernels.begin(), kernels.end(),
                        [&](const KernelInterface* k) { return k->uses(rule.uses); }))
            continue;
        return Diagnostic{fileName, 0, 0, SeverityKind::Error,
                          std::string(kernels.size() == 1 ? "the kernel uses" : "no kernel uses") +
                              " no " + shaderFeatureName(rule.uses) + "; the statement says: \"" +
                              rule.text + "\""};
    }
    return std::nullopt;
}

} // namespace vkp
