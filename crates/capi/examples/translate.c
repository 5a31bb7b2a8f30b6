/* Translates executable 0 of a PICA200 SHBIN, a program given as words, a fixed-function
 * fragment pipeline given as registers and, when given, a Latte .gsh shader and a Latte vertex
 * program's bytes to SPIR-V through libshaderport's C ABI.
 *
 *   translate SHADER.shbin OUT_DIR [CACHE_DIR [LATTE.gsh LATTE_VERTEX_PROGRAM.bin]]
 *
 * writes OUT_DIR/shbin.spv, words.spv, fragment.spv (and latte_gsh.spv, latte.spv) and prints
 * each output's interface. Exit status 0 on success, 1 with the library's error message
 * otherwise. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shaderport.h"

static unsigned char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *bytes = malloc(size > 0 ? (size_t)size : 1);
    *len = fread(bytes, 1, (size_t)size, f);
    fclose(f);
    return bytes;
}

static int write_output(const SpOutput *output, const char *dir, const char *name) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    size_t len = 0;
    const uint8_t *bytes = sp_output_bytes(output, &len);
    const SpInterface *i = sp_output_interface(output);
    printf("%s: %zu bytes, stage %u, entry %s, inputs %#x, outputs %#x, position o%d, flow %u, cached %u\n",
           name, len, i->stage, i->entry_point, i->input_mask, i->output_mask, i->position, i->flow,
           i->from_cache);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(bytes, 1, len, f) != len) {
        fprintf(stderr, "cannot write %s\n", path);
        return 1;
    }
    fclose(f);
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s SHADER.shbin OUT_DIR [CACHE_DIR]\n", argv[0]);
        return 2;
    }
    SpError error;
    SpCache *cache = NULL;
    if (argc > 3 && sp_cache_open(argv[3], 64u << 20, &cache, &error) != SP_OK) {
        fprintf(stderr, "cache: %s\n", error.message);
        return 1;
    }

    size_t len = 0;
    unsigned char *shbin = read_file(argv[1], &len);
    if (!shbin) {
        fprintf(stderr, "cannot read %s\n", argv[1]);
        return 1;
    }
    SpOptions options = {.target = SP_TARGET_SPIRV, .precision = SP_PRECISION_COMPAT, .flags = 0};
    SpOutput *output = NULL;
    if (sp_pica_translate_shbin(shbin, len, 0, &options, cache, &output, &error) != SP_OK) {
        fprintf(stderr, "%s: %s (code %d)\n", argv[1], error.message, error.code);
        return 1;
    }
    int failed = write_output(output, argv[2], "shbin.spv");
    sp_output_free(output);
    free(shbin);

    /* What an emulator holds at draw time: mov o0, v0; mov o1, v1; end, descriptor 0 = xyzw. */
    const uint32_t code[] = {0x4C000000u, 0x4C201000u, 0x88000000u};
    const uint32_t descriptors[] = {0x0000036Fu};
    const SpPicaOutputMap outputs[] = {{.reg = 0, .semantic = 0 /* position */},
                                       {.reg = 1, .semantic = 2 /* colour */}};
    SpPicaProgram program = {
        .code = code,
        .code_len = 3,
        .descriptors = descriptors,
        .descriptors_len = 1,
        .entry = 0,
        .shader_type = SP_PICA_VERTEX,
        .input_mask = 0x3,
        .output_mask = 0,
        .geometry_mode = 0,
        .outputs = outputs,
        .outputs_len = 2,
    };
    if (sp_pica_translate(&program, &options, cache, &output, &error) != SP_OK) {
        fprintf(stderr, "words: %s (code %d)\n", error.message, error.code);
        return 1;
    }
    failed |= write_output(output, argv[2], "words.spv");
    sp_output_free(output);

    /* A PICA200 fragment pipeline from the register file an emulator keeps: texture unit 0 (2D)
     * on, TexEnv stage 0 replaces RGB and alpha by texture 0 and stages 1-5 pass it through;
     * the vertex stage writes the position to o0, the colour to o1, texcoord 0 to o2. */
    static uint32_t regs[SP_PICA_REGISTERS];
    regs[0x04F] = 3;                    /* SH_OUTMAP_TOTAL */
    regs[0x050] = 0x03020100u;          /* o0 = position.xyzw */
    regs[0x051] = 0x0B0A0908u;          /* o1 = color.rgba */
    regs[0x052] = 0x1F1F0D0Cu;          /* o2 = texcoord0.uv */
    regs[0x06D] = 1;                    /* DEPTHMAP_ENABLE: z-buffering */
    regs[0x080] = 1;                    /* TEXUNIT_CONFIG: unit 0 on */
    const uint32_t texenv[6] = {0x0C0, 0x0C8, 0x0D0, 0x0D8, 0x0F0, 0x0F8};
    for (int i = 0; i < 6; i++) {
        regs[texenv[i]] = i == 0 ? (3u | 3u << 16) : (15u | 15u << 16); /* texture 0 / previous */
    }
    SpPicaFragmentKey key;
    if (sp_pica_fragment_key_from_regs(regs, &key, &error) != SP_OK) {
        fprintf(stderr, "fragment key: %s (code %d)\n", error.message, error.code);
        return 1;
    }
    uint8_t uniforms[SP_PICA_FRAGMENT_UNIFORM_SIZE];
    size_t uniform_len = 0;
    if (sp_pica_fragment_uniforms(regs, NULL, uniforms, sizeof uniforms, &uniform_len, &error) != SP_OK) {
        fprintf(stderr, "fragment uniforms: %s (code %d)\n", error.message, error.code);
        return 1;
    }
    if (sp_pica_fragment_translate(&key, &options, cache, &output, &error) != SP_OK) {
        fprintf(stderr, "fragment: %s (code %d)\n", error.message, error.code);
        return 1;
    }
    const SpInterface *fi = sp_output_interface(output);
    printf("fragment: %zu uniform bytes, texture units %#x (cube %#x)\n", uniform_len, fi->texmap_mask,
           fi->texture_cube_mask);
    if (fi->stage != SP_STAGE_FRAGMENT || fi->texmap_mask != 1 || fi->input_mask != 0x7) {
        fprintf(stderr, "unexpected fragment interface\n");
        return 1;
    }
    failed |= write_output(output, argv[2], "fragment.spv");
    sp_output_free(output);

    /* Fragment lighting (one light) read by stage 0: its parameters and LUTs are in the same
     * uniform block. */
    key.lighting.enabled = 1;
    key.lighting.count = 1;
    key.texenv[0].rgb_source[0] = 1; /* fragment primary colour */
    if (sp_pica_fragment_translate(&key, &options, cache, &output, &error) != SP_OK) {
        fprintf(stderr, "lit fragment: %s (code %d)\n", error.message, error.code);
        return 1;
    }
    printf("lit fragment: translated\n");
    failed |= write_output(output, argv[2], "fragment_lit.spv");
    sp_output_free(output);

    /* A malformed call is an error code and a message, never a crash. */
    program.entry = 99;
    if (sp_pica_translate(&program, &options, cache, &output, &error) != SP_ERROR_TRANSLATE || output) {
        fprintf(stderr, "an entry point outside the program was accepted\n");
        return 1;
    }
    printf("refused: %s\n", error.message);

    /* Latte: pixel shader 0 of a .gsh file, and a vertex program's bytes as GX2 holds them with
     * the draw's loop constant 0 (count 3, init 0, increment 1). */
    if (argc > 5) {
        unsigned char *gsh = read_file(argv[4], &len);
        if (!gsh) {
            fprintf(stderr, "cannot read %s\n", argv[4]);
            return 1;
        }
        if (sp_latte_translate_gsh(gsh, len, SP_LATTE_PIXEL, 0, &options, cache, &output, &error) != SP_OK) {
            fprintf(stderr, "%s: %s (code %d)\n", argv[4], error.message, error.code);
            return 1;
        }
        failed |= write_output(output, argv[2], "latte_gsh.spv");
        sp_output_free(output);
        free(gsh);

        unsigned char *words = read_file(argv[5], &len);
        if (!words) {
            fprintf(stderr, "cannot read %s\n", argv[5]);
            return 1;
        }
        SpLatteProgram latte = {.bytes = words, .len = len, .stage = SP_LATTE_VERTEX, .loop_const_mask = 1};
        latte.loop_consts[0] = 3u | 1u << 24;
        if (sp_latte_translate(&latte, &options, cache, &output, &error) != SP_OK) {
            fprintf(stderr, "%s: %s (code %d)\n", argv[5], error.message, error.code);
            return 1;
        }
        const SpInterface *li = sp_output_interface(output);
        printf("latte: entry %s, uniform blocks %#x, constant file %u, fetch buffers %u\n", li->entry_point,
               li->uniform_block_mask, li->constant_file, li->fetch_buffers);
        failed |= write_output(output, argv[2], "latte.spv");
        sp_output_free(output);
        free(words);

        /* Geometry programs are valid input, not translated yet. */
        latte.stage = SP_LATTE_GEOMETRY;
        if (sp_latte_translate(&latte, &options, cache, &output, &error) != SP_ERROR_UNSUPPORTED || output) {
            fprintf(stderr, "a geometry program was accepted\n");
            return 1;
        }
        printf("unsupported: %s\n", error.message);
    }
    sp_cache_close(cache);
    return failed;
}
