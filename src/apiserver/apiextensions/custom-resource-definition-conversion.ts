/**
 * A CRD's spec.conversion (validateCustomResourceConversion): the strategy, the webhook's client
 * config (a url or a service, as apiserver's util/webhook validates them) and the ConversionReview
 * versions. The paths are the internal type's (webhookClientConfig, conversionReviewVersions),
 * which is what the API server reports. The caBundle is not checked on create: the CRD is not
 * established yet (allowInvalidCABundle).
 */
import { type FieldError, type FieldPath, GoSyntax, forbidden, invalid, notSupported, required } from '../apimachinery/field-error.js';
import { string } from '../golang/values.js';
import { isDNS1035Label, isDNS1123Subdomain, isValidPortNum } from '../apimachinery/names.js';
import { type InternalConversion, pointer } from './custom-resource-definition-internal.js';
import { goParseURL } from '../golang/url.js';
import { goQuoteBytes } from '../golang/netip.js';

/** The ConversionReview versions the previous API server release understands (a sorted set). */
const ACCEPTED_REVIEW_VERSIONS = ['v1', 'v1beta1'];

export function validateConversion(conversion: InternalConversion | undefined, path: FieldPath): FieldError[] {
  if (conversion === undefined) return [];
  const errors: FieldError[] = [];
  const { strategy, webhookClientConfig: config } = conversion;
  if (strategy === '') errors.push(required(path.child('strategy')));
  else if (strategy !== 'None' && strategy !== 'Webhook') errors.push(notSupported(path.child('strategy'), strategy, ['None', 'Webhook']));
  if (strategy !== 'Webhook') {
    if (config !== undefined)
      errors.push(forbidden(path.child('webhookClientConfig'), 'should not be set when strategy is not set to Webhook'));
    if (conversion.conversionReviewVersions.length > 0)
      errors.push(forbidden(path.child('conversionReviewVersions'), 'should not be set when strategy is not set to Webhook'));
    return errors;
  }
  const configPath = path.child('webhookClientConfig');
  if (config === undefined) errors.push(required(configPath, 'required when strategy is set to Webhook'));
  else {
    const url = typeof config.url === 'string' ? config.url : undefined;
    const service = pointer(config.service);
    if ((url === undefined) === (service === undefined)) errors.push(required(configPath, 'exactly one of url or service is required'));
    else if (url !== undefined) errors.push(...validateWebhookURL(configPath.child('url'), url));
    else if (service !== undefined) errors.push(...validateWebhookService(configPath.child('service'), service));
  }
  errors.push(...validateReviewVersions(conversion.conversionReviewVersions, path.child('conversionReviewVersions')));
  return errors;
}

/** webhook.ValidateWebhookURL with https forced. */
function validateWebhookURL(path: FieldPath, text: string): FieldError[] {
  const form = '; desired format: https://host[/path]';
  const url = goParseURL(text);
  if (typeof url === 'string') return [required(path, `url must be a valid URL: ${url}${form}`)];
  const errors: FieldError[] = [];
  if (url.scheme !== 'https') errors.push(invalid(path, url.scheme, `'https' is the only allowed URL scheme${form}`));
  if (url.host === '') errors.push(invalid(path, '', `host must be specified${form}`));
  if (url.user !== undefined)
    errors.push(invalid(path, new GoSyntax(goQuoteBytes(url.user)), 'user information is not permitted in the URL'));
  if (url.fragment !== '') errors.push(invalid(path, new GoSyntax(goQuoteBytes(url.fragment)), 'fragments are not permitted in the URL'));
  if (url.rawQuery !== '')
    errors.push(invalid(path, new GoSyntax(goQuoteBytes(url.rawQuery)), 'query parameters are not permitted in the URL'));
  return errors;
}

/** webhook.ValidateWebhookService: name, namespace, the port (443 by default) and a path of DNS subdomain segments. */
function validateWebhookService(path: FieldPath, service: Record<string, unknown>): FieldError[] {
  const errors: FieldError[] = [];
  // validateCustomResourceConversion passes the service's name as the namespace and its namespace as the name.
  if (string(service.namespace) === '') errors.push(required(path.child('name'), 'service name is required'));
  if (string(service.name) === '') errors.push(required(path.child('namespace'), 'service namespace is required'));
  const port = typeof service.port === 'number' ? service.port : 443;
  const portErrors = isValidPortNum(port);
  if (portErrors.length > 0) errors.push(invalid(path.child('port'), port, `port is not valid: ${portErrors.join(', ')}`));
  if (typeof service.path !== 'string') return errors;
  const urlPath = service.path;
  if (urlPath === '/' || urlPath === '') return errors;
  if (urlPath === '//') return [...errors, invalid(path.child('path'), urlPath, 'segment[0] may not be empty')];
  if (!urlPath.startsWith('/')) errors.push(invalid(path.child('path'), urlPath, "must start with a '/'"));
  // Go slices bytes: a path that does not start with '/' loses its first byte, whatever it is.
  let rest = Buffer.from(urlPath, 'utf8').subarray(1).toString('utf8');
  if (rest.endsWith('/')) rest = rest.slice(0, -1);
  rest.split('/').forEach((step, i) => {
    if (step === '') errors.push(invalid(path.child('path'), urlPath, `segment[${i}] may not be empty`));
    else for (const failure of isDNS1123Subdomain(step)) errors.push(invalid(path.child('path'), urlPath, `segment[${i}]: ${failure}`));
  });
  return errors;
}

function validateReviewVersions(versions: string[], path: FieldPath): FieldError[] {
  if (versions.length < 1) return [required(path)];
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  let accepted = false;
  versions.forEach((version, i) => {
    if (seen.has(version)) {
      errors.push(invalid(path.index(i), version, 'duplicate version'));
      return;
    }
    seen.add(version);
    for (const message of isDNS1035Label(version)) errors.push(invalid(path.index(i), version, message));
    if (ACCEPTED_REVIEW_VERSIONS.includes(version)) accepted = true;
  });
  if (!accepted) errors.push(invalid(path, versions, `must include at least one of ${ACCEPTED_REVIEW_VERSIONS.join(', ')}`));
  return errors;
}
