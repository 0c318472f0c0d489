#include <gtest/gtest.h>
#include <iostream>
#include "shader/compiler.h"
#include "shader/reflect.h"
#include "shader/spirv_module.h"
#include "core/puzzle_loader.h"
namespace vkp {
static void show(const std::string& src) {
    Compiler c;
    auto r = c.compile(src, "k.comp");
    std::cout << "ok=" << r.ok() << "\n";
    for (auto& d : r.diagnostics) std::cout << "  DIAG " << d.str() << "\n";
    if (r.ok()) {
        auto k = reflectKernel(r.spirv);
        for (auto& b : k->bindings) std::cout << "  B set=" << b.set << " b=" << b.binding << " block=" << b.blockName << " arr=" << b.arrayName << " sb=" << b.storageBuffer << " single=" << b.singleRuntimeArray << " t=" << b.elementTypeText << "\n";
        for (auto& s : k->specConstants) std::cout << "  S " << s.first << " " << s.second << "\n";
        for (int d=0; d<3; ++d) std::cout << "  L" << d << " fixed=" << (k->fixedLocalSize[d] ? int(*k->fixedLocalSize[d]) : -1) << " spec=" << k->localSizeFromSpec[d] << " id=" << k->localSizeSpecIds[d] << "\n";
    }
}
TEST(Explore, All) {
    show("#version 450\nlayout(local_size_x = 1) in;\nvoid main() {\n    uint i = 0;\n    uint x = i + n;\n}\n");
    show("#version 450\nlayout(local_size_x = 1) in;\nvoid main() {\n    int x = 1.0;\n}\n");
    show("#version 450\nlayout(local_size_x = 1) in;\nvoid main() {\n    int x = 1;\n    x = 1.5;\n    float f = 1; uint u = -1; int y = uvec2(1);\n}\n");
    show("#version 450\nlayout(local_size_x_id = 0, local_size_y = 2) in;\nlayout(constant_id = 3) const uint SIZE = 1;\nlayout(constant_id = 5) const int UNUSED = 1;\n"
         "layout(set = 0, binding = 0) readonly buffer A { float a[]; };\nlayout(set = 0, binding = 1) buffer R { int result[]; };\nlayout(set = 0, binding = 2) buffer U { uint u[]; };\nlayout(set = 1, binding = 3) uniform UB { vec4 v[4]; };\nlayout(set = 0, binding = 4) buffer Two { uint n; float b[]; };\n"
         "void main() { result[0] = int(SIZE); }\n");
    show("#version 450\nlayout(local_size_x = 4) in;\nlayout(constant_id = 0) const uint N = 1;\nvoid main() { }\n");
    show("#version 450\nlayout(local_size_x = 4) in;\nvoid main() { }\nfoo bar;\n#error boom\n");
}
}
