"""The C sources of the loops of the mca-real test corpus: files of Debian
bookworm source packages (`apt-get source PKG`), compiled one file at a
time with `-S`, no configure step.

SOURCES maps a source package to
  files  globs relative to the unpacked source tree, library code only
         (files a package only builds for one OS or with other libraries
         are left out)
  skip   globs (relative) taken out of `files`
  inc    include directories (globs), relative to the source tree
  defs   -D flags (defs_x86 / defs_a64: for one architecture only)
  gen    {relative path: text}: small headers written for this project
         (what a configure step would generate), in WORK/gen/PKG/, which
         comes first on the include path
  subst  {relative path: (template relative to the source tree, {@VAR@: value})}:
         a header made from the package's own .in/.cmake template; any
         @VAR@ not listed becomes empty, `#cmakedefine X` becomes `#define X`
         when X is listed as "1", else a comment

None of these packages is used by the blocks of this corpus or by the forms
corpus (gather-forms.sh).
"""

STDINT_TYPES = {
    "@SIZE16@": "int16_t", "@USIZE16@": "uint16_t", "@SIZE32@": "int32_t",
    "@USIZE32@": "uint32_t", "@SIZE64@": "int64_t", "@USIZE64@": "uint64_t",
    "@INCLUDE_STDINT@": "#include <stdint.h>", "@INCLUDE_INTTYPES_H@": "1",
    "@INCLUDE_STDINT_H@": "1", "@INCLUDE_SYS_TYPES_H@": "1",
}

AUTOCONF_BASIC = """#define HAVE_STDINT_H 1
#define HAVE_INTTYPES_H 1
#define HAVE_STDLIB_H 1
#define HAVE_STRING_H 1
#define HAVE_STRINGS_H 1
#define HAVE_MEMORY_H 1
#define HAVE_UNISTD_H 1
#define HAVE_LIMITS_H 1
#define HAVE_MATH_H 1
#define HAVE_SYS_TYPES_H 1
#define STDC_HEADERS 1
"""

SOURCES = {
    "kissfft": dict(
        files=["kiss_fft.c", "kiss_fftr.c", "kfc.c", "kiss_fftnd.c", "kiss_fftndr.c", "tools/kiss_fastfir.c"],
        inc=["."], defs=["-DREAL_FASTFIR=1"]),
    "libgsm": dict(
        files=["src/*.c"], skip=["src/toast*.c", "src/debug.c"],
        inc=["inc"], defs=["-DSASR", "-DNeedFunctionPrototypes=1"]),
    "libdeflate": dict(
        files=["lib/*.c", "lib/x86/*.c", "lib/arm/*.c"], inc=[".", "lib"]),
    "zopfli": dict(
        files=["src/zopfli/*.c"], skip=["src/zopfli/zopfli_bin.c"], inc=["src/zopfli"]),
    "lzo2": dict(
        files=["src/lzo*.c"], inc=["include", "src"]),
    "libmd": dict(
        files=["src/*.c"], skip=["src/helper.c"], inc=["include"],
        gen={"config.h": AUTOCONF_BASIC + "#define HAVE_SYS_PARAM_H 1\n"}),
    "utf8proc": dict(files=["utf8proc.c"], inc=["."], defs=["-DUTF8PROC_STATIC"]),
    "jbigkit": dict(files=["libjbig/jbig.c", "libjbig/jbig85.c", "libjbig/jbig_ar.c"], inc=["libjbig"]),
    "libimagequant": dict(
        files=["*.c"], skip=["example.c"], inc=["."]),
    "speex": dict(
        files=["libspeex/*.c"], skip=["libspeex/test*.c", "libspeex/kiss_fft*.c", "libspeex/smallft.c"],
        inc=["include", "libspeex"],
        defs=["-DHAVE_CONFIG_H"],
        gen={"config.h": AUTOCONF_BASIC + "#define FLOATING_POINT 1\n#define USE_SMALLFT 1\n"
                                          "#define VAR_ARRAYS 1\n#define EXPORT\n"},
        subst={"speex_config_types.h": ("include/speex/speex_config_types.h.in", STDINT_TYPES)}),
    "giflib": dict(
        files=["dgif_lib.c", "egif_lib.c", "gif_hash.c", "gifalloc.c", "quantize.c", "gif_font.c",
               "gif_err.c", "openbsd-reallocarray.c"], inc=["."]),
    "a52dec": dict(
        files=["liba52/*.c"], inc=["include", "liba52"],
        gen={"config.h": AUTOCONF_BASIC + "#define HAVE_MEMALIGN 1\n"}),
    "twolame": dict(
        files=["libtwolame/*.c"], inc=["libtwolame"],
        gen={"config.h": AUTOCONF_BASIC + '#define PACKAGE_VERSION "0.4.0"\n#define PACKAGE_BUGREPORT ""\n'
                                          '#define PACKAGE_URL ""\n'}),
    "libogg": dict(
        files=["src/*.c"], inc=["include"],
        subst={"ogg/config_types.h": ("include/ogg/config_types.h.in", STDINT_TYPES)}),
    "libdivsufsort": dict(
        files=["lib/*.c"], inc=["include"], defs=["-DHAVE_CONFIG_H"],
        gen={"config.h": AUTOCONF_BASIC + '#define INLINE inline\n#define PROJECT_VERSION_FULL "2.0.1"\n'},
        subst={"divsufsort.h": ("include/divsufsort.h.cmake", {
            "@INCFILE@": "#include <inttypes.h>", "@SAUCHAR_TYPE@": "uint8_t", "@SAINT32_TYPE@": "int32_t",
            "@SAINDEX_TYPE@": "int32_t", "@SAINT_PRId@": "PRId32", "@SAINDEX_PRId@": "PRId32"})}),
    "minimap2": dict(
        files=["*.c"], skip=["ksw2_*sse*.c", "ksw2_dispatch.c", "main.c", "example.c", "bseq.c", "index.c"],
        inc=["."]),
    "libtommath": dict(files=["bn_*.c"], inc=["."]),
    "libtomcrypt": dict(
        files=["src/*/*.c", "src/*/*/*.c", "src/*/*/*/*.c"], inc=["src/headers"],
        defs=["-DLTC_SOURCE", "-DLTC_NO_TEST"]),
    "mbedtls": dict(
        files=["library/*.c"], skip=["library/net_sockets.c", "library/entropy_poll.c", "library/timing.c",
                                     "library/psa_its_file.c"],
        inc=["include", "library"]),
    "wavpack": dict(files=["src/*.c"], inc=["include", "src"], defs=["-DENABLE_DSD", "-DENABLE_THREADS=0"]),
    "qhull": dict(files=["src/libqhull_r/*.c"], skip=["src/libqhull_r/userprintf*.c", "src/libqhull_r/usermem_r.c"],
                  inc=["src", "src/libqhull_r"]),
    "liquid-dsp": dict(
        files=["src/*/src/*.c", "src/libliquid.c"],
        skip=["*.proto.c", "*.avx.c", "*.mmx.c", "*.neon.c", "*.av.c", "*.sse4.c", "*.sse.c"],
        inc=["include", "."],
        gen={"config.h": AUTOCONF_BASIC + "#define HAVE_COMPLEX_H 1\n#define HAVE_FLOAT_H 1\n"
                                          "#define HAVE_MALLOC 1\n#define HAVE_REALLOC 1\n#define SIZEOF_INT 4\n"}),
    "faad2": dict(
        files=["libfaad/*.c", "libfaad/codebook/*.c"], inc=["include", "libfaad"],
        defs=["-DHAVE_STDINT_H", "-DHAVE_INTTYPES_H", "-DHAVE_STRING_H", "-DHAVE_STDLIB_H", "-DSTDC_HEADERS",
              "-DHAVE_LRINTF", "-DHAVE_MEMCPY", '-DPACKAGE_VERSION="2.10.1"']),
    "lcms2": dict(files=["src/*.c"], inc=["include", "src"]),
    "libsecp256k1": dict(
        files=["src/secp256k1.c", "src/precomputed_ecmult.c", "src/precomputed_ecmult_gen.c"],
        inc=["include", "src", "."],
        defs=["-DECMULT_WINDOW_SIZE=15", "-DECMULT_GEN_PREC_BITS=4", "-DENABLE_MODULE_ECDH",
              "-DENABLE_MODULE_EXTRAKEYS", "-DENABLE_MODULE_SCHNORRSIG"]),
    "c-blosc": dict(
        files=["blosc/shuffle-generic.c", "blosc/bitshuffle-generic.c", "blosc/fastcopy.c", "blosc/blosclz.c"],
        inc=["blosc"]),
    "libnova": dict(files=["src/*.c"], skip=["src/misc.c", "src/julian_day.c"], inc=["src"],
                    gen={"config.h": AUTOCONF_BASIC}),
    "lame": dict(
        files=["libmp3lame/*.c"], skip=["libmp3lame/mpglib_interface.c"], inc=["include", "libmp3lame"],
        defs=["-DHAVE_CONFIG_H"],
        gen={"config.h": AUTOCONF_BASIC + "#define HAVE_ERRNO_H 1\n#define HAVE_FCNTL_H 1\n"
                                          "#define TAKEHIRO_IEEE754_HACK 1\n#define USE_FAST_LOG 1\n"
                                          "#define HAVE_IEEE754_FLOAT32_T 0\n#define ieee754_float32_t float\n"}),
}


if __name__ == "__main__":
    print(" ".join(sorted(SOURCES)))
