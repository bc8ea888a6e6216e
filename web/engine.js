// The course engine (the `course` library built for wasm32-unknown-unknown)
// behind one function: `engine.call({cmd, ...})` returns the response object.
// Runs in a browser, in a Web Worker, and under node (the comparison test
// loads it there).
//
// The module's bytes: from a web server, `course.wasm` (fetched and
// compiled as it streams; the server's gzip applies); from file:// (where
// fetch() is refused) or when that fails, course-wasm.js, the base64 of the
// gzipped module (build.sh), loaded with a <script> tag only then.
//
// The tables of the built-in processor models (`course mca` on assembly)
// are not in the module: `await engine.run(req)` is `call` for a request
// that may need them. When the engine answers with `missing_tables`, each
// is loaded from its script mca/NAME.js (build.sh; it sets
// COURSE_MCA_TABLES[NAME] to the table's base64, a script because
// file:// refuses fetch()), handed to the engine (`course_mca_table`), and
// the request is asked again. A table is loaded once a page.
//
// In the page every call is asynchronous and off the main thread:
// `CourseEngine.start()` runs the engine in Web Workers (`lanes`), one for
// the quick, stateful calls (drills, the quiz's and flashcards' sessions,
// progress) and one for the runs that may take long (llvm-mca, the lab
// checker, worksheets), which `cancel()` stops by replacing its worker.
(function (root) {
  "use strict";

  // The engine proper, shared by the page, the workers and node: the
  // workers get this function's source text.
  function core(root) {
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

    // `module`: a WebAssembly.Module or the module's bytes.
    async function instantiate(module) {
      if (module instanceof WebAssembly.Module) {
        return (await WebAssembly.instantiate(module, {})).exports;
      }
      return (await WebAssembly.instantiate(module, {})).instance.exports;
    }

    // A synchronous engine over one instance of `module`; a trap (which
    // should never happen) replaces the instance.
    async function open(module) {
      let ex = await instantiate(module);
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
          instantiate(module).then((fresh) => {
            ex = fresh;
            broken = false;
          });
          return { ok: false, error: "internal error in the engine: " + e.message };
        }
      }

      return {
        call: (req) => guarded(() => callRaw(JSON.stringify(req))),
        // Hands the table `name` (its bytes) to the engine.
        register: (name, data) => guarded(() => registerRaw(name, data)),
      };
    }

    return { decodeBase64, gunzip, open };
  }

  const C = core(root);

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
  // `loadScript` (a <script> tag by default).
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

  // The tables `names`, each as bytes, or an error response.
  async function tableBytes(names, loadScript) {
    try {
      const b64s = await Promise.all(names.map((n) => tableBase64(n, loadScript)));
      return b64s.map((b) => C.decodeBase64(b));
    } catch (e) {
      return { ok: false, error: e.message };
    }
  }

  // load(b64, {loadScript}): the engine in this thread (node, tests).
  // `loadScript(src)` runs a table's script (a promise or nothing; the
  // default is a <script> tag, node passes its own).
  async function load(b64, options) {
    const bytes = await C.gunzip(C.decodeBase64(b64 || root.COURSE_WASM_BASE64));
    const loadScript = (options && options.loadScript) || scriptTag;
    const inner = await C.open(bytes);
    const engine = {
      call: inner.call,
      // Loads the tables `names` (mca/NAME.js) and hands them to the engine;
      // resolves to an error response if one does not load, else to null.
      async loadTables(names) {
        const got = await tableBytes(names, loadScript);
        if (!Array.isArray(got)) return got;
        for (let i = 0; i < names.length; i++) {
          const res = inner.register(names[i], got[i]);
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

  // ---- the page: the engine in Web Workers ------------------------------

  // The worker's side: opens the module it is sent, then answers each
  // message in order ({id, call} or {id, table, bytes}).
  function workerMain(self, C) {
    let ready = null;
    self.onmessage = async (e) => {
      const m = e.data;
      if (m.module) {
        ready = C.open(m.module);
        return;
      }
      let engine;
      try {
        engine = await ready;
      } catch (err) {
        self.postMessage({ id: m.id, res: { ok: false, error: "the engine could not start: " + err.message } });
        return;
      }
      const res = m.table ? engine.register(m.table, m.bytes) : engine.call(m.call);
      self.postMessage({ id: m.id, res });
    };
  }

  const WORKER_SOURCE = "\"use strict\";\n(" + workerMain.toString() + ")(self, (" + core.toString() + ")(self));\n";

  // The module's bytes or compiled module: course.wasm from a web server,
  // else the base64 of course-wasm.js (a <script> loaded now if the page
  // has not loaded it).
  async function module() {
    if (/^https?:$/.test(location.protocol) && WebAssembly.compileStreaming) {
      try {
        const r = await fetch("course.wasm");
        if (r.ok) return await WebAssembly.compileStreaming(r);
      } catch (e) {
        /* fall back to the base64 copy */
      }
    }
    if (!root.COURSE_WASM_BASE64) await scriptTag("course-wasm.js");
    const bytes = await C.gunzip(C.decodeBase64(root.COURSE_WASM_BASE64));
    return WebAssembly.compile(bytes);
  }

  // One worker and its queue of requests. `run` resolves to the response;
  // `cancel` answers every pending request with {ok: false, cancelled}
  // and starts a fresh worker (handing it the tables loaded so far).
  let workerUrl = null;
  function lane(name, mod, tables, onBusy) {
    let worker = null;
    let next = 1;
    // Failures in a row without an answer: a worker that cannot start is
    // not restarted forever.
    let failures = 0;
    const waiting = new Map();
    workerUrl = workerUrl || URL.createObjectURL(new Blob([WORKER_SOURCE], { type: "text/javascript" }));

    function spawn() {
      worker = new Worker(workerUrl, { name: "course-" + name });
      worker.onmessage = (e) => {
        failures = 0;
        const w = waiting.get(e.data.id);
        if (!w) return;
        waiting.delete(e.data.id);
        w(e.data.res);
        onBusy(name, waiting.size);
      };
      worker.onerror = (e) => {
        e.preventDefault();
        for (const [, w] of waiting) w({ ok: false, error: "internal error in the engine: " + (e.message || "the worker stopped") });
        waiting.clear();
        onBusy(name, 0);
        if (++failures <= 3) restart();
      };
      worker.postMessage({ module: mod });
      for (const [t, bytes] of tables) worker.postMessage({ id: 0, table: t, bytes });
    }

    function restart() {
      if (worker) worker.terminate();
      spawn();
    }

    function post(msg) {
      const id = next++;
      return new Promise((resolve) => {
        waiting.set(id, resolve);
        onBusy(name, waiting.size);
        worker.postMessage(Object.assign({ id }, msg));
      });
    }

    spawn();
    return {
      call: (req) => post({ call: req }),
      table: (t, bytes) => post({ table: t, bytes }),
      busy: () => waiting.size > 0,
      cancel() {
        if (waiting.size === 0) return;
        for (const [, w] of waiting) w({ ok: false, cancelled: true, error: "cancelled" });
        waiting.clear();
        onBusy(name, 0);
        restart();
      },
    };
  }

  // The commands that may run long: the heavy lane's.
  const HEAVY = new Set(["mca", "grade", "worksheet"]);

  // start({onBusy}): the engine in two workers. `onBusy(lane, n)` is told
  // how many requests each lane has in flight.
  async function start(options) {
    const onBusy = (options && options.onBusy) || (() => {});
    const mod = await module();
    const tables = new Map(); // name → bytes, handed to every new worker
    const light = lane("light", mod, tables, onBusy);
    // The heavy lane starts with its first request: most visits never
    // run llvm-mca, the lab checker or a worksheet.
    let heavyLane = null;
    const heavy = () => heavyLane || (heavyLane = lane("heavy", mod, tables, onBusy));
    const pick = (req) => (HEAVY.has(req.cmd) ? heavy() : light);

    // Only the heavy lane runs llvm-mca: only it gets the tables.
    async function loadTables(names) {
      const got = await tableBytes(names, scriptTag);
      if (!Array.isArray(got)) return got;
      for (let i = 0; i < names.length; i++) {
        tables.set(names[i], got[i]);
        const res = await heavy().table(names[i], got[i]);
        if (!res.ok) return res;
      }
      return null;
    }

    return {
      // The response to `req` (a promise), tables loaded as it needs them;
      // `onTables(names)` is told before they load.
      async run(req, onTables) {
        const l = pick(req);
        const res = await l.call(req);
        if (res.ok || !res.missing_tables) return res;
        if (onTables) onTables(res.missing_tables);
        const failed = await loadTables(res.missing_tables);
        return failed || l.call(req);
      },
      // Stops what the heavy lane is running (mca, grade, worksheet).
      cancel: () => heavyLane && heavyLane.cancel(),
      busy: () => !!heavyLane && heavyLane.busy(),
    };
  }

  root.CourseEngine = { load, start };
})(typeof globalThis !== "undefined" ? globalThis : this);
