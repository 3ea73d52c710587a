/**
 * The page of the static build (`npm run build:web` → dist/web/): Thoth runs inside it. Before
 * anything starts the page makes sure it is cross-origin isolated where it can be
 * (src/web/isolation.ts), so that Thoth searches on all cores.
 */
import { PageController } from '../gui/page/controller';
import { EngineClient } from '../gui/page/engine/engine-client';
import { ensureIsolation, showSingleThreadNote } from './isolation';
import { LocalLink } from './local-link';

void ensureIsolation().then((iso) => {
  if (iso.kind === 'reloading') return;
  new PageController(new EngineClient(new LocalLink()));
  if (iso.kind === 'single') showSingleThreadNote(iso.why);
});
