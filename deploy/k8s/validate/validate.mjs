// Offline validation of the Kubernetes manifests against the Kubernetes API
// schemas (the OpenAPI schemas that kubernetes-models compiles into
// validators), without a cluster.
//
//   npm ci --prefix deploy/k8s/validate        (once; pinned by package-lock.json)
//   node deploy/k8s/validate/validate.mjs [DIR] (default: deploy/k8s)
//
// For every YAML document of DIR/*.yaml (kustomization.yaml aside): the
// model class of its apiVersion and kind, `new Model(doc).validate()`, and a
// search for fields the schema does not know (kubernetes-models ignores
// them; the API server drops or rejects them, and either way a misspelt
// field such as readOnlyRootFileSystem silently does nothing). Also: every
// resource kustomization.yaml lists exists, and every manifest is listed
// there, except *.example.yaml files, which must not be (they show the shape
// of objects made by hand, such as Secrets).
//
// Prints one line per document ("ok  FILE: Kind/name", or "FAIL ..." with
// one line per error) and a summary; exits 1 on any failure, including an
// apiVersion/kind that kubernetes-models does not model. Run by
// scripts/check-deploy.sh.
import { readFileSync, readdirSync, existsSync, statSync } from "node:fs";
import { join, resolve, dirname, basename } from "node:path";
import { fileURLToPath } from "node:url";
import { parseAllDocuments } from "yaml";

const here = dirname(fileURLToPath(import.meta.url));
const dir = resolve(process.argv[2] ?? join(here, ".."));
const modelsVersion = JSON.parse(
  readFileSync(join(here, "node_modules", "kubernetes-models", "package.json"), "utf8")).version;

let failures = 0;
let documents = 0;
const files = readdirSync(dir).filter((f) => /\.ya?ml$/.test(f) && statSync(join(dir, f)).isFile()).sort();

function fail(where, lines) {
  failures++;
  console.log(`FAIL ${where}`);
  for (const line of lines) console.log(`     ${line}`);
}

// ---- kustomization.yaml: not a Kubernetes object, but it names the files
// `kubectl apply -k` applies.
const kustomizationFile = files.find((f) => /^kustomization\.ya?ml$/.test(f));
if (!kustomizationFile) {
  fail(`${basename(dir)}: no kustomization.yaml`, []);
} else {
  const docs = parseAllDocuments(readFileSync(join(dir, kustomizationFile), "utf8"));
  const k = docs[0]?.toJS() ?? {};
  const resources = Array.isArray(k.resources) ? k.resources : [];
  const problems = [];
  for (const r of resources) {
    if (typeof r !== "string" || !existsSync(join(dir, r))) problems.push(`resource ${r} does not exist`);
  }
  for (const f of files) {
    if (f === kustomizationFile) continue;
    const listed = resources.includes(f);
    if (/\.example\.ya?ml$/.test(f)) {
      if (listed) problems.push(`${f} is an example: apply -k must not create it`);
    } else if (!listed) {
      problems.push(`${f} is not listed in resources`);
    }
  }
  if (problems.length) fail(`${kustomizationFile}`, problems);
  else console.log(`ok   ${kustomizationFile}: ${resources.length} resources, all present`);
}

// ---- unknown fields. The compiled validators read every property their
// schema declares (`data.name`, ...) and enumerate the keys of free-form
// maps (labels, annotations, resources.requests). Run the validator on a
// proxy that records those reads: a key that was never read is a field the
// schema does not have.
function unknownFields(Model, object) {
  const read = new WeakMap();
  const mark = (target, key) => {
    if (typeof key !== "string") return;
    let keys = read.get(target);
    if (!keys) read.set(target, (keys = new Set()));
    keys.add(key);
  };
  const handler = {
    get(target, key, receiver) {
      mark(target, key);
      return wrap(Reflect.get(target, key, receiver));
    },
    has(target, key) {
      mark(target, key);
      return Reflect.has(target, key);
    },
    ownKeys(target) {
      const keys = Reflect.ownKeys(target);
      for (const key of keys) mark(target, key);
      return keys;
    },
  };
  const wrap = (v) => (v !== null && typeof v === "object" ? new Proxy(v, handler) : v);
  try {
    Model.prototype.validate.call(wrap(object));
  } catch {
    // The errors themselves are reported by the plain validate() call.
  }
  const unknown = [];
  const walk = (value, path) => {
    if (value === null || typeof value !== "object") return;
    const keys = read.get(value) ?? new Set();
    for (const key of Object.keys(value)) {
      const p = Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
      if (!Array.isArray(value) && !keys.has(key)) unknown.push(p);
      else walk(value[key], p);
    }
  };
  walk(object, "");
  return unknown;
}

// "apps/v1" -> kubernetes-models/apps/v1, "v1" -> kubernetes-models/v1.
const modules = new Map();
async function modelClass(apiVersion, kind) {
  if (typeof apiVersion !== "string" || !/^([a-z0-9.-]+\/)?v[0-9]+((alpha|beta)[0-9]+)?$/.test(apiVersion)) return null;
  if (typeof kind !== "string" || !/^[A-Z][A-Za-z0-9]*$/.test(kind)) return null;
  if (!modules.has(apiVersion)) {
    modules.set(apiVersion, await import(`kubernetes-models/${apiVersion}`).catch(() => null));
  }
  const Model = modules.get(apiVersion)?.[kind];
  // The modules also export the types objects are made of (Container,
  // PodSpec, ...): only top-level kinds carry apiVersion and kind.
  return Model && Model.kind === kind && Model.apiVersion === apiVersion ? Model : null;
}

for (const file of files) {
  if (file === kustomizationFile) continue;
  const docs = parseAllDocuments(readFileSync(join(dir, file), "utf8"), { version: "1.1" });
  let index = 0;
  for (const doc of docs) {
    index++;
    if (doc.errors.length) {
      documents++;
      fail(`${file}: document ${index}`, doc.errors.map((e) => `YAML: ${e.message.split("\n")[0]}`));
      continue;
    }
    const object = doc.toJS();
    if (object === null || object === undefined) continue; // comments only
    documents++;
    const what = `${object.kind ?? "?"}/${object.metadata?.name ?? "?"}`;
    if (typeof object !== "object" || Array.isArray(object)) {
      fail(`${file}: document ${index}`, ["not a mapping"]);
      continue;
    }
    const Model = await modelClass(object.apiVersion, object.kind);
    if (!Model) {
      fail(`${file}: ${what}`, [`unknown kind: apiVersion ${object.apiVersion}, kind ${object.kind}`]);
      continue;
    }
    const errors = [];
    const model = new Model(object);
    try {
      model.validate();
    } catch (e) {
      for (const err of e.errors ?? [{ instancePath: "", message: e.message }]) {
        const params = err.params?.allowedValues ? ` (${err.params.allowedValues.join(", ")})`
          : err.params?.missingProperty ? ` (${err.params.missingProperty})` : "";
        errors.push(`${err.instancePath || "/"}: ${err.message}${params}`);
      }
    }
    const failed = errors.map((e) => e.split(":")[0]);
    for (const field of unknownFields(Model, model)) {
      // Under a value of the wrong type nothing was read: already reported.
      const pointer = "/" + field.replace(/\[(\d+)\]/g, ".$1").split(".").join("/");
      if (!failed.some((f) => f !== "/" && pointer.startsWith(f + "/"))) errors.push(`unknown field ${field}`);
    }
    if (errors.length) fail(`${file}: ${what}`, errors);
    else console.log(`ok   ${file}: ${what}`);
  }
}

console.log(`validate: ${documents} documents in ${files.length - (kustomizationFile ? 1 : 0)} files ` +
  `against kubernetes-models ${modelsVersion}: ${failures === 0 ? "all valid" : `${failures} failed`}`);
process.exit(failures === 0 ? 0 : 1);
