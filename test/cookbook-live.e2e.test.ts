// Every cookbook shape, live, on the Chromium engine, then the committed generated/cookbook/*.js
// files and the complete scripts of the generated skills through `gstack run`. The suite lives in
// test/helpers/cookbook-live.ts; its Aside half is test/cookbook-live-aside.e2e.test.ts.
import { cookbookLiveSuite } from './helpers/cookbook-live.js';

cookbookLiveSuite({ engines: ['chromium'], committed: true });
