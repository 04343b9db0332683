// The sign-in form keeps the address's fragment (a dashboard view such as
// #bookings/12, from a host's e-mail): the browser carries it through the
// redirect that follows a successful sign-in.
'use strict';
(function () {
  const form = document.querySelector('form[method="post"]');
  if (form && location.hash) form.action = form.getAttribute('action') + location.hash;
})();
