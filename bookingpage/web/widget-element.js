// <staykit-booking>: the booking flow (app.js) in a custom element, with
// the booking page's markup and stylesheet in its shadow root, so the host
// page's styles and the widget's do not touch. Part of /widget.js (see
// widget.go), which defines STAYKIT_WIDGET, StayKit and staykitFlow first.
'use strict';

(function () {
  if (typeof STAYKIT_WIDGET === 'undefined' || customElements.get('staykit-booking')) return;
  let sheet = null;

  class StaykitBooking extends HTMLElement {
    connectedCallback() {
      if (this.shadowRoot) return; // moved in the page: keep the running flow
      const shadow = this.attachShadow({ mode: 'open' });
      // A constructed stylesheet passes a host page's CSP that forbids
      // inline <style>; older browsers get the <style>.
      if ('adoptedStyleSheets' in shadow && typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype) {
        if (!sheet) { sheet = new CSSStyleSheet(); sheet.replaceSync(STAYKIT_WIDGET.css); }
        shadow.adoptedStyleSheets = [sheet];
      } else {
        const style = document.createElement('style');
        style.textContent = STAYKIT_WIDGET.css;
        shadow.append(style);
      }
      const frame = document.createElement('div');
      frame.className = 'sk-root';
      frame.innerHTML = STAYKIT_WIDGET.html;
      shadow.append(frame);
      const api = (this.getAttribute('api') || STAYKIT_WIDGET.origin).replace(/\/+$/, '');
      staykitFlow(shadow, {
        host: this, api, server: STAYKIT_WIDGET.server,
        org: this.getAttribute('org') || '', locale: this.getAttribute('locale') || '', property: this.getAttribute('property') || ''
      });
    }
  }

  customElements.define('staykit-booking', StaykitBooking);
})();
