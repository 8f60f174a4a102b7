import { CLI_BINARIES, prepareCliEnv, type CliEnv, type CliName } from './cli-env.ts';
import { startMockModel, type MockModel, type Script } from './mock-model/index.ts';
import { startTelegramWorld, type TelegramWorld } from './telegram-world.ts';

export interface RealCliWorld {
  mock: MockModel;
  cliEnv: CliEnv;
  world: TelegramWorld;
  stop(): Promise<void>;
}

/**
 * Everything real but the two servers: the bridge process with the real `cli` binary as its
 * default, against the fake Bot API and the mock model API (scripted by `script`).
 */
export async function startRealCliWorld(cli: CliName, script?: Script, extraEnv: Record<string, string> = {}): Promise<RealCliWorld> {
  const mock = await startMockModel(script ? { script } : {});
  const cliEnv = await prepareCliEnv(cli, mock.url);
  const world = await startTelegramWorld({
    ...cliEnv.env,
    BRIDGE_DEFAULT_CLI: cli,
    [`BRIDGE_${cli.toUpperCase()}_COMMAND`]: CLI_BINARIES[cli],
    BRIDGE_WORKDIR: cliEnv.workdir,
    ...extraEnv,
  });
  return {
    mock,
    cliEnv,
    world,
    async stop() {
      await world.stop();
      await mock.close();
      await cliEnv.cleanup();
    },
  };
}
