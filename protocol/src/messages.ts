import type { Language } from './constants.ts';
import type { ErrorCode } from './errors.ts';
import type { AvatarFailureCode } from './rest/avatar-uploads.ts';

/**
 * The spec's error texts (§5, §8) in both languages. The server answers with them (by the
 * request's language) and the client's i18n resources include them under `errors.*` and
 * `validation.*`, so a text is written once.
 */
export const ERROR_MESSAGES: Record<Language, Record<ErrorCode, string>> = {
  en: {
    validation_failed: 'Please check your input and try again.',
    invalid_payload: 'Please check your input and try again.',
    unauthorized: 'You are not authorized to perform this action.',
    token_expired: 'Your session has expired. Please sign in again.',
    session_revoked: 'For your security, your session was closed. Please sign in again.',
    signed_out: 'You were signed out. Sign in again to continue.',
    password_changed: 'Your password was changed. Sign in again with the new password.',
    invalid_credentials: 'Invalid email or password.',
    refresh_invalid: 'Your session has expired. Please sign in again.',
    forbidden: 'You are not authorized to perform this action.',
    not_found: 'The requested resource was not found.',
    email_taken: 'An account with this email already exists.',
    plan_not_available: 'This plan is not available right now. Registration is limited to the free plan.',
    rate_limited: 'Too many requests. Please wait a moment and try again.',
    limit_reached: "You've reached your plan's message limit.",
    payload_too_large: 'The request is too large.',
    unsupported_media_type: 'This content type is not supported. Send JSON.',
    multipart_required: 'This address takes a file: send it as a form upload (multipart/form-data).',
    request_too_large: 'The request headers or address are too long.',
    client_too_old: 'This page is older than the server. Reload it to get the new version.',
    server_too_old: 'The server is still on an older version than this page. Try again in a few minutes.',
    misdirected_request: 'This address does not serve Alma. Open the app at its own address.',
    origin_not_allowed: 'You are not authorized to perform this action.',
    transcription_not_configured: 'Voice transcription is not configured on this server.',
    unsupported_audio: 'This audio format is not supported. Record a WebM or Ogg (Opus) voice note.',
    invalid_audio: 'The voice note could not be read: the file is damaged or incomplete.',
    audio_too_long: 'The voice note is too long: the limit is 10 minutes and 10 MB.',
    voice_note_failed: 'Error processing the voice note. Please try again.',
    voice_format_invalid: 'Only audio files are allowed (WAV, MP3, M4A, OGG)',
    voice_file_damaged:
      'Only audio files are allowed (WAV, MP3, M4A, OGG): this file is damaged or incomplete.',
    voice_file_too_large: 'The file is too large. Maximum 10MB',
    voice_limit_reached: "You have reached your plan's maximum of custom voices.",
    upload_feature_not_included:
      'Your plan does not include this feature. Contact support to upgrade to Pro.',
    upload_storage_full: 'There is not enough storage left in your plan for this file.',
    upload_concurrency_limit:
      "You have reached your plan's limit of simultaneous uploads. Wait for the current one to finish.",
    avatar_format_invalid: 'Only .glb files are allowed for avatars',
    avatar_file_too_large: 'The file is too large. Maximum 50MB',
    avatar_limit_reached: "You have reached your plan's maximum of custom avatars.",
    avatar_not_ready:
      'This avatar is not ready yet: its model is still being processed or processing failed.',
    avatar_not_cancellable: 'Only an avatar that is still processing can be cancelled.',
    avatar_model_invalid: 'This .glb file is damaged or incomplete, so it cannot be used.',
    avatar_too_complex: 'This model is too complex to process safely.',
    avatar_texture_too_large: 'A texture in this model is too large.',
    avatar_extension_unsupported: 'This model uses a format Alma cannot display.',
    payments_maintenance:
      'Paid plans are in maintenance: upgrades, billing, cancellation and reactivation are disabled for now. Contact support to upgrade to Pro.',
    no_active_subscription:
      "You don't have an active subscription. First you must subscribe to a Standard or Advanced plan.",
    link_invalid: 'This link is invalid or has expired. Please request a new one.',
    oauth_not_configured: 'Signing in with this provider is not configured on this server.',
    oauth_failed: 'Error signing in with the provider. Please try again.',
    reply_failed: 'Error processing the message. Please try again.',
    cancelled: 'The reply was stopped.',
    shutting_down: 'The server is restarting. Please try again in a moment.',
    unavailable: 'The server is unavailable. Please try again later.',
    server_error: 'Server error. Please try again later.',
  },
  es: {
    validation_failed: 'Revisa los datos e inténtalo de nuevo.',
    invalid_payload: 'Revisa los datos e inténtalo de nuevo.',
    unauthorized: 'No tienes autorización para realizar esta acción.',
    token_expired: 'Token expirado o inválido',
    session_revoked: 'Por tu seguridad, hemos cerrado tu sesión. Inicia sesión de nuevo.',
    signed_out: 'Se ha cerrado tu sesión. Inicia sesión de nuevo para continuar.',
    password_changed: 'Tu contraseña ha cambiado. Inicia sesión de nuevo con la nueva contraseña.',
    invalid_credentials: 'Email o contraseña incorrectos.',
    refresh_invalid: 'Tu sesión ha caducado. Inicia sesión de nuevo.',
    forbidden: 'No tienes autorización para realizar esta acción.',
    not_found: 'No se encontró el recurso solicitado.',
    email_taken: 'Ya existe una cuenta con este email.',
    plan_not_available:
      'Este plan no está disponible ahora mismo. El registro está limitado al plan gratuito.',
    rate_limited: 'Demasiadas solicitudes. Espera un momento e inténtalo de nuevo.',
    limit_reached: 'Has alcanzado el límite de mensajes de tu plan.',
    payload_too_large: 'La solicitud es demasiado grande.',
    unsupported_media_type: 'Este tipo de contenido no se admite. Envía JSON.',
    multipart_required: 'Esta dirección recibe un archivo: envíalo como formulario (multipart/form-data).',
    request_too_large: 'Las cabeceras o la dirección de la solicitud son demasiado largas.',
    client_too_old: 'Esta página es más antigua que el servidor. Recárgala para obtener la nueva versión.',
    server_too_old:
      'El servidor aún tiene una versión anterior a esta página. Inténtalo de nuevo en unos minutos.',
    misdirected_request: 'Esta dirección no sirve Alma. Abre la aplicación en su propia dirección.',
    origin_not_allowed: 'No tienes autorización para realizar esta acción.',
    transcription_not_configured: 'La transcripción de voz no está configurada en este servidor.',
    unsupported_audio: 'Este formato de audio no se admite. Graba una nota de voz WebM u Ogg (Opus).',
    invalid_audio: 'No se pudo leer la nota de voz: el archivo está dañado o incompleto.',
    audio_too_long: 'La nota de voz es demasiado larga: el límite es de 10 minutos y 10 MB.',
    voice_note_failed: 'Error al procesar la nota de voz. Por favor, intenta de nuevo.',
    // Spec §5, word for word.
    voice_format_invalid: 'Solo se permiten archivos de audio (WAV, MP3, M4A, OGG)',
    voice_file_damaged:
      'Solo se permiten archivos de audio (WAV, MP3, M4A, OGG): este archivo está dañado o incompleto.',
    voice_file_too_large: 'El archivo es demasiado grande. Máximo 10MB',
    voice_limit_reached: 'Has alcanzado el máximo de voces personalizadas de tu plan.',
    upload_feature_not_included: 'Tu plan no incluye esta función. Contacta con soporte para pasar a Pro.',
    upload_storage_full: 'No tienes suficiente almacenamiento disponible en tu plan para este archivo.',
    upload_concurrency_limit:
      'Has alcanzado el límite de subidas simultáneas de tu plan. Espera a que termine la que está en curso.',
    // Spec §5, word for word.
    avatar_format_invalid: 'Solo se permiten archivos .glb para avatares',
    avatar_file_too_large: 'El archivo es demasiado grande. Máximo 50MB',
    avatar_limit_reached: 'Has alcanzado el máximo de avatares personalizados de tu plan.',
    avatar_not_ready: 'Este avatar aún no está listo: su modelo se está procesando o el procesamiento falló.',
    avatar_not_cancellable: 'Solo se puede cancelar un avatar que todavía se está procesando.',
    avatar_model_invalid: 'Este archivo .glb está dañado o incompleto y no se puede usar.',
    avatar_too_complex: 'Este modelo es demasiado complejo para procesarlo de forma segura.',
    avatar_texture_too_large: 'Una textura de este modelo es demasiado grande.',
    avatar_extension_unsupported: 'Este modelo usa un formato que Alma no puede mostrar.',
    payments_maintenance:
      'Los planes de pago están en mantenimiento: la mejora de plan, la facturación, la cancelación y la reactivación están desactivadas por ahora. Contacta con soporte para pasar a Pro.',
    // Spec §8: "No tienes una suscripción activa" maps to the full no-active-subscription text.
    no_active_subscription:
      'No tienes una suscripción activa. Primero debes suscribirte a un plan Standard o Advanced.',
    link_invalid: 'Este enlace no es válido o ha caducado. Solicita uno nuevo.',
    oauth_not_configured: 'El acceso con este proveedor no está configurado en este servidor.',
    oauth_failed: 'Error en la autenticación con el proveedor. Inténtalo de nuevo.',
    reply_failed: 'Error al procesar el mensaje. Por favor, intenta de nuevo.',
    cancelled: 'La respuesta se detuvo.',
    shutting_down: 'El servidor se está reiniciando. Inténtalo de nuevo en un momento.',
    unavailable: 'El servidor no está disponible. Inténtalo más tarde.',
    server_error: 'Error del servidor. Inténtalo más tarde.',
  },
};

/** Field validation codes of spec §5, plus generic ones for fields the spec does not name. */
export const FIELD_MESSAGES = {
  en: {
    emailRequired: 'Email is required',
    emailInvalid: 'Please enter a valid email address',
    emailNotValid: 'Email is not valid',
    passwordRequired: 'Password is required',
    passwordLength: 'Password must be at least 6 characters',
    passwordComplexity:
      'Password must contain at least one lowercase letter, one uppercase letter and one number',
    confirmPasswordRequired: 'Please confirm your password',
    passwordMismatch: 'Passwords do not match',
    nameRequired: 'Name is required (at least 2 characters)',
    termsRequired: 'You must accept the terms and conditions',
    planNotAvailable: 'This plan is not available. Registration is limited to the free plan.',
    selectOrUploadAvatar: 'Select or upload an avatar',
    avatarUnavailable: 'Choose one of the characters or one of your own avatars that is ready',
    selectOrUploadVoice: 'Select or upload a voice',
    voiceConsentRequired: 'Confirm that you have the right to use this voice before uploading it',
    messageRequired: 'Write a message',
    tooLong: 'This is too long',
    required: 'This field is required',
    invalid: 'This value is not valid',
    oneFile: 'Send only one file',
    tooManyFields: 'The form has too many fields',
  },
  es: {
    emailRequired: 'El email es obligatorio',
    emailInvalid: 'Introduce un email válido',
    emailNotValid: 'El email no es válido',
    passwordRequired: 'La contraseña es obligatoria',
    passwordLength: 'La contraseña debe tener al menos 6 caracteres',
    passwordComplexity: 'La contraseña debe tener al menos una minúscula, una mayúscula y un número',
    confirmPasswordRequired: 'Confirma tu contraseña',
    passwordMismatch: 'Las contraseñas no coinciden',
    nameRequired: 'El nombre es obligatorio (al menos 2 caracteres)',
    termsRequired: 'Debes aceptar los términos y condiciones',
    planNotAvailable: 'Este plan no está disponible. El registro está limitado al plan gratuito.',
    selectOrUploadAvatar: 'Selecciona o sube un avatar',
    avatarUnavailable: 'Elige uno de los personajes o uno de tus avatares ya listos',
    selectOrUploadVoice: 'Selecciona o sube una voz',
    voiceConsentRequired: 'Confirma que tienes derecho a usar esta voz antes de subirla',
    messageRequired: 'Escribe un mensaje',
    tooLong: 'Es demasiado largo',
    required: 'Este campo es obligatorio',
    invalid: 'Este valor no es válido',
    oneFile: 'Envía un solo archivo',
    tooManyFields: 'El formulario tiene demasiados campos',
  },
} as const satisfies Record<Language, Record<string, string>>;
export type FieldCode = keyof (typeof FIELD_MESSAGES)['en'];

export function isFieldCode(code: string): code is FieldCode {
  return Object.hasOwn(FIELD_MESSAGES.en, code);
}

export function errorMessage(language: Language, code: ErrorCode): string {
  return ERROR_MESSAGES[language][code];
}

export function fieldMessage(language: Language, code: string): string {
  return isFieldCode(code) ? FIELD_MESSAGES[language][code] : FIELD_MESSAGES[language].invalid;
}

/** Why an avatar's processing failed (SPEC.md AU-5), as the feedback panel shows it. */
export const AVATAR_FAILURE_MESSAGES: Record<Language, Record<AvatarFailureCode, string>> = {
  en: {
    invalid_glb: 'The file is not a valid glTF binary (.glb).',
    model_rejected: 'The model did not pass the checks before processing.',
    validation_failed: 'The model has errors the glTF validator reports; export it again and retry.',
    unreadable_model: 'The model could not be read; it may be damaged.',
    empty_model: 'The model contains no meshes to show.',
    timeout: 'Processing took longer than the 5-minute limit.',
    too_complex:
      'Processing this model needed more computing time or memory than its size allows. Simplify it (fewer vertices, smaller textures) and try again.',
    processing_failed: 'Avatar processing failed. Please try again.',
    interrupted: 'Processing was interrupted by a server restart. Please try again.',
  },
  es: {
    invalid_glb: 'El archivo no es un glTF binario (.glb) válido.',
    model_rejected: 'El modelo no superó las comprobaciones previas al procesamiento.',
    validation_failed:
      'El modelo tiene errores que señala el validador glTF; expórtalo de nuevo e inténtalo otra vez.',
    unreadable_model: 'No se pudo leer el modelo; puede estar dañado.',
    empty_model: 'El modelo no contiene mallas que mostrar.',
    timeout: 'El procesamiento superó el límite de 5 minutos.',
    too_complex:
      'Procesar este modelo necesitó más tiempo de cálculo o memoria de lo que permite su tamaño. Simplifícalo (menos vértices, texturas más pequeñas) y vuelve a intentarlo.',
    processing_failed: 'El procesamiento del avatar falló. Por favor, inténtalo de nuevo.',
    interrupted: 'Un reinicio del servidor interrumpió el procesamiento. Por favor, inténtalo de nuevo.',
  },
};
