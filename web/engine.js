// The course engine (the `course` library built for wasm32-unknown-unknown)
// behind one function: `engine.call({cmd, ...})` returns the response object.
// The module's bytes come from course-wasm.js (base64, written by build.sh),
// so the page works from file:// where fetch() of a .wasm is refused.
// Runs in a browser and under node (the comparison test loads it there).
(function (root) {
  "use strict";

  function decodeBase64(b64) {
    if (typeof Buffer !== "undefined") {
      return new Uint8Array(Buffer.from(b64, "base64"));
    }
    const bin = atob(b64);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return bytes;
  }

  const encoder = new TextEncoder();
  const decoder = new TextDecoder();

  // One instance; a trap (which should never happen) replaces it.
  async function instantiate(bytes) {
    const { instance } = await WebAssembly.instantiate(bytes, {});
    return instance.exports;
  }

  async function load(b64) {
    const bytes = decodeBase64(b64 || root.COURSE_WASM_BASE64);
    let ex = await instantiate(bytes);
    let broken = false;

    function callRaw(request) {
      const input = encoder.encode(request);
      const ptr = ex.course_alloc(input.length);
      new Uint8Array(ex.memory.buffer, ptr, input.length).set(input);
      const out = ex.course_call(ptr, input.length);
      ex.course_free(ptr, input.length);
      const n = new DataView(ex.memory.buffer).getUint32(out, true);
      const text = decoder.decode(new Uint8Array(ex.memory.buffer, out + 4, n));
      ex.course_free(out, n + 4);
      return text;
    }

    return {
      call(req) {
        if (broken) {
          return { ok: false, error: "the engine stopped; reload the page" };
        }
        try {
          return JSON.parse(callRaw(JSON.stringify(req)));
        } catch (e) {
          // A trap leaves the instance unusable: start a fresh one.
          broken = true;
          instantiate(bytes).then((fresh) => {
            ex = fresh;
            broken = false;
          });
          return { ok: false, error: "internal error in the engine: " + e.message };
        }
      },
    };
  }

  root.CourseEngine = { load };
})(typeof globalThis !== "undefined" ? globalThis : this);
