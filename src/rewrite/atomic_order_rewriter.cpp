#include "rewrite/atomic_order_rewriter.h"

#include <map>
#include <set>

#include "shader/spirv_builder.h"
#include "shader/spirv_module.h"

namespace vkp {
namespace {

using Op = spv::Op;
using spv::StorageClass;

bool endsBlock(Op op) {
    return op == Op::OpBranch || op == Op::OpBranchConditional || op == Op::OpSwitch ||
           op == Op::OpReturn || op == Op::OpReturnValue || op == Op::OpKill ||
           op == Op::OpUnreachable || op == Op::OpTerminateInvocation;
}

class AtomicOrderReverser {
  public:
    explicit AtomicOrderReverser(SpirvModule& module) : m(module) {}

    void run() {
        m_uint = m.typeUint();
        std::vector<SpirvInstruction> out;
        size_t start = 0;
        for (size_t i = 0; i < m.functions.size(); ++i) {
            if (m.functions[i].opcode() != Op::OpFunctionEnd) continue;
            rewriteFunction(std::span(m.functions).subspan(start, i + 1 - start), out);
            start = i + 1;
        }
        m.functions = std::move(out);
    }

  private:
    // The lane built-ins, declared at first need.
    void declareLanes() {
        if (m_lane) return;
        m.requireCapability(spv::Capability::GroupNonUniform);
        uint32_t input = m.typePointer(StorageClass::Input, m_uint);
        m_lane = m.builtinVariable(spv::BuiltIn::SubgroupLocalInvocationId, input);
        m_size = m.builtinVariable(spv::BuiltIn::SubgroupSize, input);
    }

    // Every block's atomics in a loop over the lanes; each block's label maps to the block its
    // terminator ends up in (a phi naming the block as its parent names that one), and the
    // Function variables that carry the atomics' results go into the first block.
    void rewriteFunction(std::span<const SpirvInstruction> function,
                         std::vector<SpirvInstruction>& out) {
        size_t begin = out.size();
        std::map<uint32_t, uint32_t> endsIn; // a block's label -> the label its end is under
        std::vector<SpirvInstruction> variables;
        m_ownPhis.clear();
        uint32_t block = 0;
        bool loopHeader = false;
        for (size_t k = 0; k < function.size(); ++k) {
            const SpirvInstruction& inst = function[k];
            Op op = inst.opcode();
            if (op == Op::OpLabel) {
                block = inst.resultId();
                loopHeader = false;
                for (size_t j = k + 1; j < function.size() && !endsBlock(function[j].opcode()); ++j)
                    loopHeader |= function[j].opcode() == Op::OpLoopMerge;
            }
            if (isAtomicOp(op) && !loopHeader) {
                SpirvBuilder b(m, out);
                uint32_t last = wrap(inst, b, variables);
                endsIn[block] = last;
                continue;
            }
            out.push_back(inst);
        }
        reparentPhis(std::span(out).subspan(begin), endsIn, m_ownPhis);
        if (variables.empty()) return;
        size_t at = begin;
        while (at < out.size() && out[at].opcode() != Op::OpLabel)
            ++at;
        ++at; // after the first block's label
        out.insert(out.begin() + std::ptrdiff_t(at), variables.begin(), variables.end());
    }

    // for (k = 0; k < size; ++k) if (lane == size - 1 - k) { the atomic, its result kept }; then
    // the result loaded under its own id. Returns the label the code goes on under.
    uint32_t wrap(const SpirvInstruction& inst, SpirvBuilder& b,
                  std::vector<SpirvInstruction>& variables) {
        declareLanes();
        uint32_t type = inst.resultType(), result = inst.resultId(), kept = 0;
        if (result) {
            kept = m.newId();
            SpirvInstruction var(Op::OpVariable, {m.typePointer(StorageClass::Function, type), kept,
                                                  uint32_t(StorageClass::Function)});
            m.noteDefinition(var);
            variables.push_back(std::move(var));
        }
        uint32_t lane = b.load(m_uint, m_lane), size = b.load(m_uint, m_size);
        uint32_t entry = b.currentBlock();
        SpirvBuilder::Loop loop = b.newLoop();
        uint32_t next = m.newId();
        uint32_t k = 0;
        auto step = [&] { b.define(next, Op::OpIAdd, m_uint, {k, b.uint(1)}); };
        b.loop(
            loop,
            [&] {
                k = m.newId();
                m_ownPhis.insert(k);
                b.define(k, Op::OpPhi, m_uint, {b.uint(0), entry, next, loop.continueTarget});
                return b.less(k, size);
            },
            [&] {
                uint32_t turn = b.sub(b.sub(size, b.uint(1)), k);
                b.ifThen(b.equal(lane, turn), [&] {
                    if (!result) {
                        b.out().push_back(inst);
                        return;
                    }
                    SpirvInstruction moved = inst;
                    uint32_t fresh = m.newId();
                    std::vector<uint32_t> words(moved.words().begin(), moved.words().end());
                    words[1] = fresh;
                    SpirvInstruction atomic(inst.opcode(), std::move(words));
                    m.noteDefinition(atomic);
                    b.out().push_back(std::move(atomic));
                    b.store(kept, fresh);
                });
                return 0u;
            },
            step);
        if (result) b.define(result, Op::OpLoad, type, {kept});
        return b.currentBlock();
    }

    SpirvModule& m;
    uint32_t m_uint = 0, m_lane = 0, m_size = 0;
    std::set<uint32_t> m_ownPhis; // the lane loops' counters (their parents are right)
};

} // namespace

Result<std::vector<uint32_t>> reverseAtomicOrder(std::span<const uint32_t> spirv) {
    auto module = SpirvModule::parse(spirv);
    if (!module) return module.error();
    AtomicOrderReverser(*module).run();
    return module->assemble();
}

} // namespace vkp
