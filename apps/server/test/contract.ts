// Every JSON answer the server tests receive is checked against the OpenAPI document the server publishes: the
// operation for its method and path must declare its status, and the body must match that status's schema. An
// answer the document does not describe fails the test that received it, so the document cannot drift.
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";

interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: object }> }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components?: object;
}

interface Template {
  path: string;
  pattern: RegExp;
  params: number;
}

export interface Contract {
  /** Throws when the answer is not one the document declares for this operation. */
  check(method: string, url: string, status: number, contentType: string | null, body: unknown): void;
}

export function contractOf(document: Document): Contract {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  const templates: Template[] = Object.keys(document.paths)
    .map((path) => ({
      path,
      pattern: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{[^}]+\\?\}/g, "[^/]+")}$`),
      params: (path.match(/\{/g) ?? []).length,
    }))
    // A fixed segment wins over a parameter, as in the router: /api/projects/counts before /api/projects/{id}.
    .sort((a, b) => a.params - b.params);
  const validators = new Map<string, ValidateFunction>();

  function validator(key: string, schema: object): ValidateFunction {
    let validate = validators.get(key);
    if (!validate) {
      validate = ajv.compile({ ...schema, components: document.components });
      validators.set(key, validate);
    }
    return validate;
  }

  return {
    check(method, url, status, contentType, body) {
      const pathname = new URL(url, "http://localhost").pathname;
      if (!pathname.startsWith("/api/")) return;
      const verb = method.toLowerCase();
      const template = templates.find((t) => t.pattern.test(pathname) && document.paths[t.path][verb]);
      if (!template) {
        // No such endpoint: the catch-all answers 404 (and a method the path lacks, the same).
        if (status === 404) return;
        throw new Error(`${method} ${pathname} answered ${status}, but the document has no such operation`);
      }
      const operation = document.paths[template.path][verb];
      const response = operation.responses?.[String(status)];
      if (!response) {
        throw new Error(
          `${method} ${template.path} answered ${status}, which the document does not declare (it declares ${Object.keys(operation.responses ?? {}).join(", ")})`,
        );
      }
      if (!contentType?.startsWith("application/json")) return;
      const schema = response.content?.["application/json"]?.schema;
      if (!schema) {
        throw new Error(
          `${method} ${template.path} answered ${status} with JSON, but the document declares no JSON body`,
        );
      }
      const validate = validator(`${verb} ${template.path} ${status}`, schema);
      if (!validate(body)) {
        throw new Error(
          `${method} ${template.path} answered ${status} with a body its schema refuses: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 2000)}`,
        );
      }
    },
  };
}
