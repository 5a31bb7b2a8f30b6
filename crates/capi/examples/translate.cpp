// Translates a PICA200 SHBIN, a Hollywood TEV material, a PICA200 fragment pipeline and a Latte
// shader to SPIR-V through libshaderport's C ABI from C++, with RAII owners for the library's handles and
// a translation cache.
//
//   translate_cpp SHADER.shbin OUT_DIR CACHE_DIR [LATTE.gsh]
//
// writes OUT_DIR/shbin.spv, tev.spv, fragment.spv (and latte.spv: the .gsh's vertex shader 0);
// translates the SHBIN, the fragment pipeline and the Latte shader twice and checks that the
// second time comes from the cache. Exit status 0 on success, 1 with the error otherwise.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "shaderport.h"

namespace {

struct OutputFree {
    void operator()(SpOutput *o) const { sp_output_free(o); }
};
struct CacheClose {
    void operator()(SpCache *c) const { sp_cache_close(c); }
};
using Output = std::unique_ptr<SpOutput, OutputFree>;
using Cache = std::unique_ptr<SpCache, CacheClose>;

void check(int32_t code, const SpError &error, const std::string &what) {
    if (code != SP_OK) throw std::runtime_error(what + ": " + error.message + " (code " + std::to_string(code) + ")");
}

std::vector<uint8_t> bytes_of(const Output &o) {
    size_t len = 0;
    const uint8_t *p = sp_output_bytes(o.get(), &len);
    return std::vector<uint8_t>(p, p + len);
}

void write(const std::string &path, const std::vector<uint8_t> &bytes) {
    std::ofstream f(path, std::ios::binary);
    f.write(reinterpret_cast<const char *>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!f) throw std::runtime_error("cannot write " + path);
}

Output translate_shbin(const std::vector<uint8_t> &shbin, const SpOptions &options, const Cache &cache) {
    SpError error{};
    SpOutput *out = nullptr;
    check(sp_pica_translate_shbin(shbin.data(), shbin.size(), 0, &options, cache.get(), &out, &error), error, "shbin");
    return Output(out);
}

}  // namespace

int main(int argc, char **argv) {
    if (argc < 4) {
        std::cerr << "usage: " << argv[0] << " SHADER.shbin OUT_DIR CACHE_DIR [LATTE.gsh]\n";
        return 2;
    }
    try {
        std::string out_dir = argv[2];
        SpError error{};
        SpCache *raw_cache = nullptr;
        check(sp_cache_open(argv[3], 64u << 20, &raw_cache, &error), error, "cache");
        Cache cache(raw_cache);

        std::ifstream in(argv[1], std::ios::binary);
        std::vector<uint8_t> shbin((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        SpOptions options{SP_TARGET_SPIRV, SP_PRECISION_EXACT, 0};
        Output first = translate_shbin(shbin, options, cache);
        Output second = translate_shbin(shbin, options, cache);
        if (bytes_of(first) != bytes_of(second) || !sp_output_interface(second.get())->from_cache)
            throw std::runtime_error("the second translation did not come from the cache");
        write(out_dir + "/shbin.spv", bytes_of(first));

        // A TEV material from the BP registers an emulator keeps: stage 0 passes the texture
        // (color d = TEXC, alpha d = TEXA) of map 0 at texcoord 0.
        std::vector<uint32_t> bp(SP_TEV_BP_REGISTERS, 0);
        bp[0x00] = 1;                              // genMode: one texgen, one stage
        bp[0x28] = (1u << 6);                      // TEV order 0: map 0, coord 0, enabled
        bp[0xC0] = 8u | (15u << 4) | (15u << 8) | (15u << 12);  // colour: d = TEXC, a, b, c = 0
        bp[0xC1] = (4u << 4) | (7u << 7) | (7u << 10) | (7u << 13);  // alpha: d = TEXA
        SpTevKey key{};
        check(sp_tev_key_from_bp(bp.data(), &key, &error), error, "tev key");
        SpOutput *tev = nullptr;
        SpOptions tev_options{SP_TARGET_SPIRV, SP_PRECISION_COMPAT, 0};
        check(sp_tev_translate(&key, &tev_options, cache.get(), &tev, &error), error, "tev");
        Output tev_out(tev);
        const SpInterface *i = sp_output_interface(tev_out.get());
        if (i->stage != SP_STAGE_FRAGMENT || i->texmap_mask != 1)
            throw std::runtime_error("tev interface: stage " + std::to_string(i->stage) + ", texmaps " +
                                     std::to_string(i->texmap_mask));
        write(out_dir + "/tev.spv", bytes_of(tev_out));

        // A PICA200 fragment pipeline from the register file: unit 0 (2D) on, TexEnv stage 0
        // modulates texture 0 by the vertex colour, stages 1-5 pass it through; o0 position,
        // o1 colour, o2 texcoord 0. Translated twice: the second comes from the cache.
        std::vector<uint32_t> regs(SP_PICA_REGISTERS, 0);
        regs[0x04F] = 3;
        regs[0x050] = 0x03020100u;
        regs[0x051] = 0x0B0A0908u;
        regs[0x052] = 0x1F1F0D0Cu;
        regs[0x06D] = 1;
        regs[0x080] = 1;
        const uint32_t texenv[6] = {0x0C0, 0x0C8, 0x0D0, 0x0D8, 0x0F0, 0x0F8};
        for (int i = 0; i < 6; i++) regs[texenv[i]] = i == 0 ? (3u | 0u << 4 | 3u << 16 | 0u << 20) : (15u | 15u << 16);
        regs[0x0C2] = 1u | 1u << 16;  // stage 0 combiners: modulate
        SpPicaFragmentKey fragment_key{};
        check(sp_pica_fragment_key_from_regs(regs.data(), &fragment_key, &error), error, "fragment key");
        std::vector<uint8_t> uniforms(SP_PICA_FRAGMENT_UNIFORM_SIZE);
        size_t uniform_len = 0;
        check(sp_pica_fragment_uniforms(regs.data(), nullptr, uniforms.data(), uniforms.size(), &uniform_len, &error),
              error, "fragment uniforms");
        Output fragment[2];
        for (Output &f : fragment) {
            SpOutput *raw = nullptr;
            check(sp_pica_fragment_translate(&fragment_key, &tev_options, cache.get(), &raw, &error), error, "fragment");
            f.reset(raw);
        }
        if (bytes_of(fragment[0]) != bytes_of(fragment[1]) || !sp_output_interface(fragment[1].get())->from_cache ||
            sp_output_interface(fragment[0].get())->texmap_mask != 1)
            throw std::runtime_error("the fragment translation's interface or cache is wrong");
        write(out_dir + "/fragment.spv", bytes_of(fragment[0]));

        // A Latte .gsh: vertex shader 0, twice (the second from the cache).
        if (argc > 4) {
            std::ifstream gin(argv[4], std::ios::binary);
            std::vector<uint8_t> gsh((std::istreambuf_iterator<char>(gin)), std::istreambuf_iterator<char>());
            Output latte[2];
            for (Output &l : latte) {
                SpOutput *raw = nullptr;
                check(sp_latte_translate_gsh(gsh.data(), gsh.size(), SP_LATTE_VERTEX, 0, &options, cache.get(), &raw,
                                             &error),
                      error, "latte");
                l.reset(raw);
            }
            const SpInterface *li = sp_output_interface(latte[1].get());
            if (bytes_of(latte[0]) != bytes_of(latte[1]) || !li->from_cache || li->stage != SP_STAGE_COMPUTE)
                throw std::runtime_error("the Latte translation's interface or cache is wrong");
            write(out_dir + "/latte.spv", bytes_of(latte[0]));
        }

        SpCacheStats stats{};
        check(sp_cache_stats(cache.get(), &stats), error, "stats");
        std::cout << "shaderport " << sp_version() << ": " << stats.hits << " hits, " << stats.misses
                  << " misses, " << stats.writes << " writes\n";
    } catch (const std::exception &e) {
        std::cerr << e.what() << "\n";
        return 1;
    }
    return 0;
}
