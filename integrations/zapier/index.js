// The app Zapier runs: built from src/ by `npm run build` (zapier push runs it through _zapier-build).
module.exports = require('./dist').default;
