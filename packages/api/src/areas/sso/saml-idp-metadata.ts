import { DOMParser } from '@xmldom/xmldom';

/*
 * A SAML identity provider's metadata (SAML 2.0 Metadata, OASIS saml-metadata-2.0-os), read as XML with
 * namespaces, not by pattern: the EntityDescriptor of the configured entity (a federation file holds
 * many), its IDPSSODescriptor's single sign-on URL, and every signing certificate it publishes (two
 * during a certificate rollover; a KeyDescriptor for encryption only is not a signing key).
 */

const MD = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DS = 'http://www.w3.org/2000/09/xmldsig#';
const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

export type IdpMetadata = {
  entityId: string;
  /** The HTTP-Redirect sign-on URL, or the first one published when none is for that binding. */
  ssoUrl: string;
  /** Base64 DER of each signing certificate, in document order, each once. */
  certificates: string[];
};

const children = (parent: Element, ns: string, name: string): Element[] =>
  Array.from(parent.getElementsByTagNameNS(ns, name));

/** The document, or why it is not one we read (not XML, or XML with a DTD, which metadata never needs). */
function parse(xml: string): Document | { problem: string } {
  if (/<!DOCTYPE/i.test(xml)) return { problem: 'The metadata has a DOCTYPE, which SAML metadata never needs' };
  let failed = false;
  const doc = new DOMParser({
    errorHandler: {
      warning: () => {},
      error: () => {
        failed = true;
      },
      fatalError: () => {
        failed = true;
      },
    },
  }).parseFromString(xml, 'text/xml');
  if (failed || !doc?.documentElement) return { problem: 'The metadata is not well-formed XML' };
  return doc;
}

/** Every EntityDescriptor with an IDPSSODescriptor: the document's own, or those of a federation file. */
function identityProviders(doc: Document): { entity: Element; idp: Element }[] {
  return children(doc.documentElement, MD, 'EntityDescriptor')
    .concat(
      doc.documentElement.namespaceURI === MD && doc.documentElement.localName === 'EntityDescriptor'
        ? [doc.documentElement]
        : [],
    )
    .flatMap((entity) => {
      const idp = children(entity, MD, 'IDPSSODescriptor')[0];
      return idp ? [{ entity, idp }] : [];
    });
}

/** The signing certificates: KeyDescriptors with `use="signing"` or no `use` (both uses). */
function signingCertificates(idp: Element): string[] {
  const found = children(idp, MD, 'KeyDescriptor')
    .filter((key) => (key.getAttribute('use') ?? '') !== 'encryption')
    .flatMap((key) => children(key, DS, 'X509Certificate'))
    .map((cert) => (cert.textContent ?? '').replace(/\s+/g, ''))
    .filter(Boolean);
  return [...new Set(found)];
}

function ssoUrlOf(idp: Element): string {
  const services = children(idp, MD, 'SingleSignOnService');
  const redirect = services.find((s) => s.getAttribute('Binding') === REDIRECT) ?? services[0];
  return redirect?.getAttribute('Location') ?? '';
}

/**
 * The identity provider `entityId` names in the metadata, or the only one it describes when no entity id
 * is set; or a problem in words.
 */
export function readIdpMetadata(xml: string, entityId: string): IdpMetadata | { problem: string } {
  const doc = parse(xml);
  if ('problem' in doc) return doc;
  const found = identityProviders(doc);
  if (found.length === 0)
    return {
      problem:
        'The metadata is not a SAML identity provider description (no EntityDescriptor with an IDPSSODescriptor)',
    };
  const chosen = entityId ? found.find((f) => f.entity.getAttribute('entityID') === entityId) : found[0];
  if (!chosen) return { problem: `The metadata has no identity provider ${entityId}` };
  if (!entityId && found.length > 1)
    return { problem: 'The metadata describes several identity providers: set the entity id of yours' };
  return {
    entityId: chosen.entity.getAttribute('entityID') ?? '',
    ssoUrl: ssoUrlOf(chosen.idp),
    certificates: signingCertificates(chosen.idp),
  };
}
