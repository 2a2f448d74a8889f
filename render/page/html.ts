// HTML escaping for every page gstack builds (documents, diagram pages): text that goes into
// markup or an attribute value is escaped here, once.

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
