"""The C sources of the forms corpus (gather-forms.sh): files of Debian
bookworm source packages (`apt-get source PKG`), compiled one file at a
time with `-S`, no configure step; same keys as loop_sources.py.

None of these packages is used by the mca-real test corpus
(build-test-corpus.sh: loop_sources.py and the block packages). Files that
copy code of a test-corpus package are left out (libsndfile's GSM610/, a
copy of libgsm).
"""

from loop_sources import AUTOCONF_BASIC, STDINT_TYPES  # noqa: F401

SODIUM_X86 = ["-D" + h for h in (
    "HAVE_MMINTRIN_H", "HAVE_EMMINTRIN_H", "HAVE_PMMINTRIN_H", "HAVE_TMMINTRIN_H",
    "HAVE_SMMINTRIN_H", "HAVE_AVXINTRIN_H", "HAVE_AVX2INTRIN_H", "HAVE_AVX512FINTRIN_H",
    "HAVE_WMMINTRIN_H", "HAVE_AMD64_ASM", "HAVE_AVX_ASM", "HAVE_CPUID")]

SOURCES = {
    "lz4": dict(files=["lib/*.c", "programs/*.c"], inc=["lib"]),
    "xxhash": dict(files=["xxhash.c", "cli/*.c"], inc=["."]),
    "libsodium": dict(
        files=["src/libsodium/*/*.c", "src/libsodium/*/*/*.c", "src/libsodium/*/*/*/*.c"],
        inc=["src/libsodium/include", "src/libsodium/include/sodium"],
        defs=["-DCONFIGURED=1", "-DNATIVE_LITTLE_ENDIAN=1", "-DHAVE_TI_MODE=1"],
        defs_x86=SODIUM_X86,
        subst={f: ("src/libsodium/include/sodium/version.h.in", {
            "@VERSION@": "1.0.18", "@SODIUM_LIBRARY_VERSION_MAJOR@": "10",
            "@SODIUM_LIBRARY_VERSION_MINOR@": "3"}) for f in ("sodium/version.h", "version.h")}),
    "mujs": dict(files=["js*.c", "utf*.c", "regexp.c", "pp.c"], inc=["."]),
    "duktape": dict(files=["src-separate/*.c"], inc=["src-separate"]),
    "jansson": dict(
        files=["src/*.c"], inc=["src"], defs=["-DHAVE_CONFIG_H"],
        gen={"jansson_private_config.h": AUTOCONF_BASIC + "#define HAVE_STDINT_H 1\n#define USE_URANDOM 1\n"
                                                          "#define HAVE_ATOMIC_BUILTINS 1\n#define HAVE_SYNC_BUILTINS 1\n"
                                                          "#define INITIAL_HASHTABLE_ORDER 3\n",
             "config.h": '#include "jansson_private_config.h"\n'},
        subst={"jansson_config.h": ("src/jansson_config.h.in", {
            "@json_inline@": "inline", "@json_have_long_long@": "1", "@json_have_localeconv@": "1",
            "@json_have_atomic_builtins@": "1", "@json_have_sync_builtins@": "1"})}),
    "libyaml": dict(
        files=["src/*.c"], inc=["include", "src"],
        defs=["-DYAML_VERSION_MAJOR=0", "-DYAML_VERSION_MINOR=2", "-DYAML_VERSION_PATCH=5",
              '-DYAML_VERSION_STRING="0.2.5"']),
    "cmark": dict(
        files=["src/*.c"], skip=["src/main.c"], inc=["src"],
        gen={"cmark_export.h": "#define CMARK_EXPORT\n"},
        subst={"config.h": ("src/config.h.in", {"HAVE_STDBOOL_H": "1", "HAVE___BUILTIN_EXPECT": "1",
                                                 "HAVE___ATTRIBUTE__": "1"}),
               "cmark_version.h": ("src/cmark_version.h.in", {
                   "@PROJECT_VERSION_MAJOR@": "0", "@PROJECT_VERSION_MINOR@": "30",
                   "@PROJECT_VERSION_PATCH@": "2"})}),
    "jimtcl": dict(
        files=["jim.c", "jim-*.c", "jimregexp.c", "utf8.c", "jimiocompat.c"],
        skip=["jim-sdl.c", "jim-sqlite3.c", "jim-redis.c", "jim-zlib.c", "jim-win32*.c", "jim-readline.c",
              "jim-mk.cpp"],
        inc=["."], defs=["-DHAVE_CONFIG_H"],
        gen={"jim-config.h": "#define HAVE_LONG_LONG 1\n#define JIM_UTF8 1\n#define JIM_VERSION 81\n",
             "jimautoconf.h": "#define HAVE_UNISTD_H 1\n#define HAVE_SYS_TIME_H 1\n#define HAVE_FORK 1\n"
                              "#define HAVE_WAITPID 1\n#define HAVE_REALPATH 1\n#define HAVE_LSTAT 1\n"
                              "#define HAVE_MKSTEMP 1\n#define HAVE_ISATTY 1\n#define HAVE_UMASK 1\n"
                              "#define HAVE_DIRENT_H 1\n#define HAVE_OPENDIR 1\n#define HAVE_VFORK 1\n"
                              "#define HAVE_SYS_STAT_H 1\n#define TCL_LIBRARY \"/usr/lib/jim\"\n"
                              "#define TCL_PLATFORM_OS \"linux\"\n#define TCL_PLATFORM_PLATFORM \"unix\"\n"
                              "#define TCL_PLATFORM_PATH_SEPARATOR \":\"\n#define HAVE_STRUCT_STAT_ST_MTIM 1\n"
                              "#define SIZEOF_INT 4\n#define jim_ext_bootstrap 1\n"}),
    "tinyscheme": dict(files=["scheme.c"], inc=["."], defs=["-DUSE_STRLWR=1", "-DUSE_DL=0", "-DUSE_MATH=1"]),
    "cjson": dict(files=["cJSON.c", "cJSON_Utils.c"], inc=["."]),
    "lzlib": dict(files=["lzlib.c", "carg_parser.c", "minilzip.c", "bbexample.c", "ffexample.c", "lzcheck.c"],
                  inc=["."], defs=['-DPROGVERSION="1.13"']),
    "libcsv": dict(files=["libcsv.c"], inc=["."]),
    "fribidi": dict(
        files=["lib/*.c"], inc=["lib"], defs=["-DHAVE_CONFIG_H", "-DFRIBIDI_BUILD"],
        gen={"config.h": AUTOCONF_BASIC + "#define HAVE_STRINGIZE 1\n#define FRIBIDI_NO_DEPRECATED 0\n",
             "fribidi-config.h": '#define FRIBIDI "fribidi"\n#define FRIBIDI_NAME "GNU FriBidi"\n'
                                 '#define FRIBIDI_BUGREPORT ""\n#define FRIBIDI_VERSION "1.0.8"\n'
                                 "#define FRIBIDI_MAJOR_VERSION 1\n#define FRIBIDI_MINOR_VERSION 0\n"
                                 "#define FRIBIDI_MICRO_VERSION 8\n#define FRIBIDI_INTERFACE_VERSION 4\n"
                                 '#define FRIBIDI_INTERFACE_VERSION_STRING "4"\n#define FRIBIDI_SIZEOF_INT 4\n'
                                 "#define FRIBIDI_ENTRY\n"}),
    "tre": dict(
        files=["lib/*.c"], inc=["lib", "include"], defs=["-DHAVE_CONFIG_H"],
        gen={"config.h": AUTOCONF_BASIC + "#define TRE_WCHAR 1\n#define TRE_MULTIBYTE 1\n#define HAVE_WCHAR_H 1\n"
                                          "#define HAVE_WCTYPE_H 1\n#define HAVE_WCTYPE 1\n#define HAVE_ISWCTYPE 1\n"
                                          "#define HAVE_MBRTOWC 1\n#define HAVE_MBSTATE_T 1\n#define TRE_APPROX 1\n"
                                          "#define HAVE_ALLOCA 1\n#define HAVE_ALLOCA_H 1\n#define TRE_USE_ALLOCA 1\n"
                                          "#define HAVE_ISWLOWER 1\n#define HAVE_ISWUPPER 1\n#define HAVE_TOWLOWER 1\n"
                                          "#define HAVE_TOWUPPER 1\n#define HAVE_WCSLEN 1\n#define HAVE_WCHAR_T 1\n"
                                          '#define TRE_VERSION "0.8.0"\n#define TRE_VERSION_1 0\n'
                                          "#define TRE_VERSION_2 8\n#define TRE_VERSION_3 0\n#define TRE_REGEX_T_FIELD value\n",
             "tre-config.h": "#define TRE_WCHAR 1\n#define TRE_MULTIBYTE 1\n#define TRE_APPROX 1\n"
                             "#define HAVE_WCHAR_H 1\n#define HAVE_SYS_TYPES_H 1\n"
                             '#define TRE_VERSION "0.8.0"\n#define TRE_VERSION_1 0\n'
                             "#define TRE_VERSION_2 8\n#define TRE_VERSION_3 0\n"}),
    "libscrypt": dict(files=["*.c"], skip=["main.c"], inc=["."]),
    "glpk": dict(
        files=["src/*.c", "src/*/*.c"], skip=["src/env/dlsup.c"], inc=["src", "src/*"],
        defs=["-DHAVE_CONFIG_H"], gen={"config.h": AUTOCONF_BASIC + '#define TLS __thread\n'}),
    "libsndfile": dict(
        files=["src/*.c", "src/G72x/*.c", "src/ALAC/*.c"],
        skip=["src/ogg*.c", "src/flac.c", "src/mpeg*.c", "src/windows.c", "src/test_*.c", "src/G72x/g72x_test.c"],
        inc=["include", "src"], defs=["-DHAVE_CONFIG_H"],
        gen={"config.h": AUTOCONF_BASIC + "#define CPU_IS_LITTLE_ENDIAN 1\n#define CPU_IS_BIG_ENDIAN 0\n"
                                          "#define CPU_CLIPS_POSITIVE 0\n#define CPU_CLIPS_NEGATIVE 0\n"
                                          "#define HAVE_LRINT 1\n#define HAVE_LRINTF 1\n#define HAVE_SSIZE_T 1\n"
                                          "#define HAVE_SYS_TIME_H 1\n#define HAVE_FSYNC 1\n#define HAVE_GMTIME_R 1\n"
                                          "#define HAVE_LOCALTIME_R 1\n#define HAVE_EXTERNAL_XIPH_LIBS 0\n"
                                          "#define HAVE_MPEG 0\n#define SIZEOF_LONG 8\n#define SIZEOF_INT 4\n"
                                          "#define SIZEOF_SF_COUNT_T 8\n#define SIZEOF_OFF_T 8\n"
                                          "#define TYPEOF_SF_COUNT_T int64_t\n#define OS_IS_WIN32 0\n"
                                          "#define USE_WINDOWS_API 0\n#define HAVE_UNISTD_H 1\n"
                                          '#define PACKAGE_NAME "libsndfile"\n#define PACKAGE_VERSION "1.2.0"\n'
                                          "#define ENABLE_EXPERIMENTAL_CODE 0\n#define COMPILER_IS_GCC 1\n",
             "sfconfig.h": '#include "config.h"\n#define HAVE_X86INTRIN_H 0\n#define CPU_IS_X86 0\n'
                           "#define CPU_IS_X86_64 0\n#define HAVE_IMMINTRIN_H 0\n"}),
    "libxmp": dict(
        files=["src/*.c", "src/loaders/*.c"], skip=["src/win32.c"], inc=["include", "src", "src/loaders"],
        defs=["-D_REENTRANT", "-DHAVE_POWF", "-DHAVE_FNMATCH", "-DHAVE_UMASK",
              "-DHAVE_MKSTEMP", "-DHAVE_DIRENT", "-DHAVE_ROUND"]),
    "libexif": dict(
        files=["libexif/*.c", "libexif/*/*.c"], inc=[".", "libexif"],
        gen={"libexif/_stdint.h": "#include <stdint.h>\n",
             "config.h": AUTOCONF_BASIC + '#define GETTEXT_PACKAGE "libexif-12"\n'
                                          '#define LOCALEDIR "/usr/share/locale"\n'}),
    "potrace": dict(
        files=["src/*.c"], skip=["src/potracelib_demo.c", "src/potrace_main.c", "src/mkbitmap.c", "src/getopt*.c"],
        inc=["src"], defs=["-DHAVE_CONFIG_H"],
        gen={"config.h": AUTOCONF_BASIC + '#define VERSION "1.16"\n#define POTRACE "potrace"\n'
                                          '#define MKBITMAP "mkbitmap"\n#define HAVE_ZLIB 0\n'
                                          '#define PACKAGE "potrace"\n#define DEFAULT_PAPERFORMAT "a4"\n'}),
    "libart-lgpl": dict(files=["art_*.c"], inc=[".", ".."], defs=["-DLIBART_COMPILATION"],
                        gen={"config.h": AUTOCONF_BASIC,
                             "libart_lgpl/art_config.h": "#define ART_SIZEOF_CHAR 1\n#define ART_SIZEOF_SHORT 2\n"
                                                         "#define ART_SIZEOF_INT 4\n#define ART_SIZEOF_LONG 8\n"
                                                         "typedef unsigned char art_u8;\n"
                                                         "typedef unsigned short art_u16;\n"
                                                         "typedef unsigned int art_u32;\n"}),
    "libmspack": dict(
        files=["mspack/*.c"], inc=["mspack", "."], defs=["-DHAVE_CONFIG_H"],
        gen={"config.h": AUTOCONF_BASIC + "#define HAVE_INTTYPES_H 1\n#define SIZEOF_OFF_T 8\n"
                                          "#define SIZEOF_LONG 8\n#define HAVE_FSEEKO 1\n"
                                          "#define HAVE_MKDIR 1\n#define HAVE_TOWLOWER 1\n"}),
    "wcslib": dict(
        files=["C/*.c", "C/flexed/*.c"], skip=["C/*test*.c", "C/fitshdr.c", "C/getwcstab.c"], inc=["C"],
        subst={"wcsconfig.h": ("wcsconfig.h.in", {})},
        defs=['-DWCSLIB_VERSION=7.12', "-DWCSLIB_INT64=long long int", "-DHAVE_SINCOS"]),
    "libdca": dict(
        files=["libdca/*.c"], inc=["include", "libdca"],
        gen={"config.h": AUTOCONF_BASIC + "#define HAVE_MEMALIGN 1\n"}),
}


if __name__ == "__main__":
    print(" ".join(sorted(SOURCES)))
