// The course engine (the `course` library built for wasm32-unknown-unknown)
// behind one function: `engine.call({cmd, ...})` returns the response object.
// The module's bytes come from course-wasm.js (base64 of the gzipped module,
// written by build.sh), so the page works from file:// where fetch() of a
// .wasm is refused.
// Runs in a browser and under node (the comparison test loads it there).
//
// The tables of the built-in processor models (`course mca` on assembly)
// are not in the module: `await engine.run(req)` is `call` for a request
// that may need them. When the engine answers with `missing_tables`, each
// is loaded from its script mca/NAME.js (build.sh; it sets
// COURSE_MCA_TABLES[NAME] to the table's base64, a script because
// file:// refuses fetch()), handed to the engine (`course_mca_table`), and
// the request is asked again. A table is loaded once a page.
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

  // The module, inflated if gzipped (its first bytes 1f 8b).
  async function gunzip(bytes) {
    if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes;
    if (typeof DecompressionStream === "undefined") {
      throw new Error("this browser has no DecompressionStream to unpack the engine");
    }
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  }

  const encoder = new TextEncoder();
  const decoder = new TextDecoder();

  // One instance; a trap (which should never happen) replaces it.
  async function instantiate(bytes) {
    const { instance } = await WebAssembly.instantiate(bytes, {});
    return instance.exports;
  }

  // Runs the script at `src` (relative to the page) with a <script> tag.
  function scriptTag(src) {
    return new Promise((resolve, reject) => {
      const s = document.createElement("script");
      s.src = src;
      s.onload = () => resolve();
      s.onerror = () => reject(new Error("it is missing or the browser refused it"));
      document.head.append(s);
    });
  }

  // The base64 of the table NAME, its script run first (once) with
  // `loadScript` (options of load(); a <script> tag by default).
  const pending = {};
  function tableBase64(name, loadScript) {
    const have = () => root.COURSE_MCA_TABLES && root.COURSE_MCA_TABLES[name];
    if (have()) return Promise.resolve(have());
    if (!pending[name]) {
      const src = "mca/" + name + ".js";
      pending[name] = Promise.resolve()
        .then(() => loadScript(src))
        .catch((e) => {
          throw new Error("could not load " + src + ": " + (e && e.message ? e.message : String(e)));
        })
        .then(() => {
          if (!have()) throw new Error(src + " did not set the table " + name);
          return have();
        })
        .finally(() => delete pending[name]);
    }
    return pending[name];
  }

  // load(b64, {loadScript}): `loadScript(src)` runs a table's script (a
  // promise or nothing; the default is a <script> tag, node passes its own).
  async function load(b64, options) {
    const bytes = await gunzip(decodeBase64(b64 || root.COURSE_WASM_BASE64));
    const loadScript = (options && options.loadScript) || scriptTag;
    let ex = await instantiate(bytes);
    let broken = false;

    // Reads the response buffer `out` of the instance and frees it.
    function response(out) {
      const n = new DataView(ex.memory.buffer).getUint32(out, true);
      const text = decoder.decode(new Uint8Array(ex.memory.buffer, out + 4, n));
      ex.course_free(out, n + 4);
      return text;
    }

    // A copy of `data` in a buffer of the instance: [ptr, len].
    function copyIn(data) {
      const ptr = ex.course_alloc(data.length);
      new Uint8Array(ex.memory.buffer, ptr, data.length).set(data);
      return [ptr, data.length];
    }

    function callRaw(request) {
      const [ptr, len] = copyIn(encoder.encode(request));
      const out = ex.course_call(ptr, len);
      ex.course_free(ptr, len);
      return response(out);
    }

    // Hands the table `name` (its bytes) to the engine.
    function registerRaw(name, data) {
      const [np, nl] = copyIn(encoder.encode(name));
      const [dp, dl] = copyIn(data);
      const out = ex.course_mca_table(np, nl, dp, dl);
      ex.course_free(np, nl);
      ex.course_free(dp, dl);
      return response(out);
    }

    // Runs `f` (a call across the boundary, its JSON response returned).
    function guarded(f) {
      if (broken) {
        return { ok: false, error: "the engine stopped; reload the page" };
      }
      try {
        return JSON.parse(f());
      } catch (e) {
        // A trap leaves the instance unusable: start a fresh one (the
        // next run hands the tables over again).
        broken = true;
        instantiate(bytes).then((fresh) => {
          ex = fresh;
          broken = false;
        });
        return { ok: false, error: "internal error in the engine: " + e.message };
      }
    }

    const engine = {
      call(req) {
        return guarded(() => callRaw(JSON.stringify(req)));
      },

      // Loads the tables `names` (mca/NAME.js) and hands them to the engine;
      // resolves to an error response if one does not load, else to null.
      async loadTables(names) {
        let b64s;
        try {
          b64s = await Promise.all(names.map((n) => tableBase64(n, loadScript)));
        } catch (e) {
          return { ok: false, error: e.message };
        }
        for (let i = 0; i < names.length; i++) {
          const res = guarded(() => registerRaw(names[i], decodeBase64(b64s[i])));
          if (!res.ok) return res;
        }
        return null;
      },

      // `call`, after loading the tables the request needs (a promise).
      async run(req) {
        const res = engine.call(req);
        if (res.ok || !res.missing_tables) return res;
        const failed = await engine.loadTables(res.missing_tables);
        return failed || engine.call(req);
      },
    };
    return engine;
  }

  root.CourseEngine = { load };
})(typeof globalThis !== "undefined" ? globalThis : this);
