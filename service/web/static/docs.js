// Swagger UI over kb's own OpenAPI, from local files (no CDN, no validator badge fetched from elsewhere).
window.ui = window.SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  validatorUrl: null,
  deepLinking: true,
  presets: [window.SwaggerUIBundle.presets.apis],
  layout: "BaseLayout",
});
