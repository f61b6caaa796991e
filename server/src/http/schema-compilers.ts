// How route schemas become validators (ajv) and response serializers
// (fast-json-stringify), compiled on each route's first request instead of at
// start-up.
//
// Fastify compiles every route's schemas when the app starts: about 0.5 s of
// CPU for our few hundred routes, paid by every process that builds the app,
// though a process serves a handful of them in its first minutes (and a test
// file's server only those it tests). Compiled on first use, each costs its
// route's first request well under a millisecond. A schema that does not
// compile would fail at that request rather than at start-up, so
// foundation/route-schemas compiles every route's schemas eagerly.
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import SerializerSelector, { type SerializerCompiler, type SerializerFactory } from '@fastify/fast-json-stringify-compiler';
import type { FastifySchemaCompiler, FastifySchemaValidationError } from 'fastify';
import { boundIntegers } from './input-guard.js';

// ajv's validators answer true or false (no async schemas here) and leave their errors on the function.
type Validator = ((data: unknown) => boolean) & { errors?: FastifySchemaValidationError[] | null };
type ValidatorRoute = Parameters<FastifySchemaCompiler<unknown>>[0];

function makeAjv(coerce: boolean): Ajv {
  // Bodies are JSON: no type coercion (a number is not a password), and an
  // unknown field is a 400 naming it (a client must not believe a field it
  // misspelled, or one we do not support, took effect). Query strings and
  // params arrive as text: coerce them; unknown query parameters are ignored.
  const ajv = new Ajv({ coerceTypes: coerce ? 'array' : false, useDefaults: true, removeAdditional: coerce, allErrors: false, strict: false });
  (addFormats as unknown as (a: Ajv) => void)(ajv);
  return ajv;
}

/** A validator that compiles on its first call; Fastify reads `errors` off the function it was given. */
function lazyValidator(compile: () => Validator): Validator {
  let compiled: Validator | undefined;
  const validate: Validator = (data: unknown) => {
    compiled ??= compile();
    const result = compiled(data);
    validate.errors = compiled.errors;
    return result;
  };
  return validate;
}

/** The app's validator compilers: `compile` at once (for the schema test), `lazy` for Fastify. */
export function validatorCompilers(): { compile(route: ValidatorRoute): Validator; lazy: FastifySchemaCompiler<unknown> } {
  const bodyAjv = makeAjv(false);
  const textAjv = makeAjv(true);
  const compile = ({ schema, httpPart }: ValidatorRoute): Validator => (httpPart === 'body' ? bodyAjv : textAjv).compile(boundIntegers(schema as object)) as Validator;
  return { compile, lazy: (route) => lazyValidator(() => compile(route)) };
}

/** Fastify's default serializer factory, with the same shared schemas and options. */
export const serializerBuilder: SerializerFactory = (externalSchemas, serializerOpts) => SerializerSelector()(externalSchemas, serializerOpts);

/** The same, each route's serializer built on its first reply (Fastify's `compilersFactory.buildSerializer`). */
export const lazySerializerFactory: SerializerFactory = (externalSchemas, serializerOpts) => {
  const build: SerializerCompiler = serializerBuilder(externalSchemas, serializerOpts);
  return (route) => {
    let serialize: ((data: unknown) => string) | undefined;
    return (data: unknown) => (serialize ??= build(route))(data);
  };
};
