/** The shape of an OpenAPI path parameter, said once for the read operations' paths. */
type Json = Record<string, unknown>;

export const pathParameter = (name: string, description: string): Json => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: { type: 'string' },
});
