//! DOM events the form flow fires for other page features, in a module without React so the common script can import it.

/** Fired (bubbling) on a form's block after a successful submission; the popup overlay records its signup from it. */
export const FORM_SUBMITTED_EVENT = 'vitrine:form-submitted';
