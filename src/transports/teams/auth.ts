import { ConfidentialClientApplication } from '@azure/msal-node';
import { CloudAdapter, ConfigurationBotFrameworkAuthentication } from 'botbuilder';
import {
  AuthenticationError,
  SkillValidation,
  AuthenticationConfiguration,
  AuthenticationConstants,
  MsalServiceClientCredentialsFactory,
} from 'botframework-connector';
import { isMicrosoftLogin, type ReadyTeamsSettings } from './settings.ts';

/**
 * The Bot Framework's CloudAdapter, as a single-tenant bot: every incoming activity's JWT is
 * checked against the Bot Framework's OpenID keys (issuer api.botframework.com, audience this
 * app, the key endorsed for msteams, the service URL the one signed), and every outgoing call
 * carries the app's token, asked of the tenant's Microsoft Entra with the client secret.
 */
export function teamsAdapter(settings: ReadyTeamsSettings, login = teamsLogin(settings)): CloudAdapter {
  const authentication = new ConfigurationBotFrameworkAuthentication(
    {
      MicrosoftAppId: settings.appId,
      MicrosoftAppTenantId: settings.tenantId,
      MicrosoftAppType: 'SingleTenant',
      ValidateAuthority: true,
      ToChannelFromBotLoginUrl: authorityOf(settings),
      ToChannelFromBotOAuthScope: AuthenticationConstants.ToChannelFromBotOAuthScope,
      ToBotFromChannelTokenIssuer: AuthenticationConstants.ToBotFromChannelTokenIssuer,
      OAuthUrl: AuthenticationConstants.OAuthUrl,
      ToBotFromChannelOpenIdMetadataUrl: settings.openIdUrl,
      ToBotFromEmulatorOpenIdMetadataUrl: AuthenticationConstants.ToBotFromEmulatorOpenIdMetadataUrl,
      CallerId: 'urn:botframework:azure',
    },
    // The same class, typed twice by the package (its ES module and CommonJS declarations).
    new MsalServiceClientCredentialsFactory(settings.appId, login as never),
    // Another bot calling this one as a skill is no one the bridge serves.
    new AuthenticationConfiguration([], async (claims) => {
      if (SkillValidation.isSkillClaim(claims)) throw new AuthenticationError('a bot calling as a skill is refused', 401);
    }),
  );
  return new CloudAdapter(authentication);
}

/** MSAL's client-credentials grant against the tenant, its token kept until it expires. */
export function teamsLogin(settings: ReadyTeamsSettings): ConfidentialClientApplication {
  return new ConfidentialClientApplication({
    auth: {
      clientId: settings.appId,
      clientSecret: settings.appPassword,
      authority: authorityOf(settings),
      // MSAL knows Microsoft's hosts; another (a twin) is trusted by naming it.
      ...(isMicrosoftLogin(settings) ? {} : { knownAuthorities: [new URL(settings.loginUrl).host] }),
    },
  });
}

/** The app's token for the Bot Connector: what proves the credentials work. */
export async function appToken(login: ConfidentialClientApplication): Promise<string> {
  const result = await login.acquireTokenByClientCredential({ scopes: [`${AuthenticationConstants.ToChannelFromBotOAuthScope}/.default`] });
  if (!result?.accessToken) throw new Error('Microsoft Entra gave no token');
  return result.accessToken;
}

function authorityOf(settings: ReadyTeamsSettings): string {
  return `${settings.loginUrl}/${settings.tenantId}`;
}
