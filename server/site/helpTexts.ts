/**
 * The help center's own words (the pages under /help/<widget uuid>), in each of the widget's 11 languages, in the
 * register the widget's texts use for that language (shared/widget-texts). `{query}`, `{max}` and `{date}` are
 * filled in by the page (fill()). Language names are not here: each language is named in itself (LOCALE_NAMES),
 * the same on every page.
 */
import type { WidgetLocale } from '../shared/widget-texts';

export type HelpTexts = {
  /** After the site's name in the browser's title bar: "Questions? Chat with us! · Help center". */
  helpCenter: string;
  /** The home page's heading, above the search box. */
  heading: string;
  /** The search box's label. */
  searchLabel: string;
  searchButton: string;
  /** The heading of the list of every article in the language. */
  articles: string;
  noArticles: string;
  /** The heading over a search's results: `{query}` is what was searched. */
  results: string;
  noResults: string;
  /** A search longer than the search accepts: `{max}` is its limit in characters. */
  tooLong: string;
  /** The way back from an article or a search to the home page. */
  allArticles: string;
  stillNeedHelp: string;
  /** Opens the chat (a button once the widget is ready; plain text without JavaScript). */
  chatWithUs: string;
  /** The label of the language switcher. */
  language: string;
  /** Under an article's title: `{date}` is its last change. */
  updated: string;
  notFound: string;
  notFoundText: string;
  skipToContent: string;
  /** The label of the trail above an article. */
  breadcrumb: string;
};

export const HELP_TEXTS: Record<WidgetLocale, HelpTexts> = {
  en: {
    helpCenter: 'Help center',
    heading: 'How can we help?',
    searchLabel: 'Search articles',
    searchButton: 'Search',
    articles: 'Articles',
    noArticles: 'No articles have been published here yet.',
    results: 'Results for “{query}”',
    noResults: 'No articles match your search.',
    tooLong: 'A search can be at most {max} characters long. Shorten it and try again.',
    allArticles: 'All articles',
    stillNeedHelp: 'Still need help?',
    chatWithUs: 'Chat with us',
    language: 'Language',
    updated: 'Updated {date}',
    notFound: 'Page not found',
    notFoundText: 'This page does not exist, or it is no longer published.',
    skipToContent: 'Skip to content',
    breadcrumb: 'Breadcrumb',
  },
  es: {
    helpCenter: 'Centro de ayuda',
    heading: '¿En qué podemos ayudarle?',
    searchLabel: 'Buscar artículos',
    searchButton: 'Buscar',
    articles: 'Artículos',
    noArticles: 'Todavía no se ha publicado ningún artículo.',
    results: 'Resultados para «{query}»',
    noResults: 'Ningún artículo coincide con su búsqueda.',
    tooLong: 'Una búsqueda puede tener como máximo {max} caracteres. Acórtela e inténtelo de nuevo.',
    allArticles: 'Todos los artículos',
    stillNeedHelp: '¿Todavía necesita ayuda?',
    chatWithUs: 'Escríbanos por chat',
    language: 'Idioma',
    updated: 'Actualizado el {date}',
    notFound: 'Página no encontrada',
    notFoundText: 'Esta página no existe o ya no está publicada.',
    skipToContent: 'Saltar al contenido',
    breadcrumb: 'Ruta de navegación',
  },
  fr: {
    helpCenter: 'Centre d’aide',
    heading: 'Comment pouvons-nous vous aider ?',
    searchLabel: 'Rechercher dans les articles',
    searchButton: 'Rechercher',
    articles: 'Articles',
    noArticles: 'Aucun article n’a encore été publié ici.',
    results: 'Résultats pour « {query} »',
    noResults: 'Aucun article ne correspond à votre recherche.',
    tooLong: 'Une recherche compte au plus {max} caractères. Raccourcissez-la et réessayez.',
    allArticles: 'Tous les articles',
    stillNeedHelp: 'Besoin d’aide supplémentaire ?',
    chatWithUs: 'Discutez avec nous',
    language: 'Langue',
    updated: 'Mis à jour le {date}',
    notFound: 'Page introuvable',
    notFoundText: 'Cette page n’existe pas ou n’est plus publiée.',
    skipToContent: 'Aller au contenu',
    breadcrumb: 'Fil d’Ariane',
  },
  de: {
    helpCenter: 'Hilfe-Center',
    heading: 'Wie können wir helfen?',
    searchLabel: 'Artikel durchsuchen',
    searchButton: 'Suchen',
    articles: 'Artikel',
    noArticles: 'Hier wurden noch keine Artikel veröffentlicht.',
    results: 'Ergebnisse für „{query}“',
    noResults: 'Kein Artikel passt zu Ihrer Suche.',
    tooLong: 'Eine Suche darf höchstens {max} Zeichen lang sein. Kürzen Sie sie und versuchen Sie es erneut.',
    allArticles: 'Alle Artikel',
    stillNeedHelp: 'Brauchen Sie weitere Hilfe?',
    chatWithUs: 'Chatten Sie mit uns',
    language: 'Sprache',
    updated: 'Aktualisiert am {date}',
    notFound: 'Seite nicht gefunden',
    notFoundText: 'Diese Seite gibt es nicht, oder sie ist nicht mehr veröffentlicht.',
    skipToContent: 'Zum Inhalt springen',
    breadcrumb: 'Brotkrümelnavigation',
  },
  pt: {
    helpCenter: 'Central de ajuda',
    heading: 'Como podemos ajudar?',
    searchLabel: 'Pesquisar artigos',
    searchButton: 'Pesquisar',
    articles: 'Artigos',
    noArticles: 'Ainda não há artigos publicados aqui.',
    results: 'Resultados para “{query}”',
    noResults: 'Nenhum artigo corresponde à sua pesquisa.',
    tooLong: 'Uma pesquisa pode ter no máximo {max} caracteres. Encurte-a e tente de novo.',
    allArticles: 'Todos os artigos',
    stillNeedHelp: 'Ainda precisa de ajuda?',
    chatWithUs: 'Fale com a gente',
    language: 'Idioma',
    updated: 'Atualizado em {date}',
    notFound: 'Página não encontrada',
    notFoundText: 'Esta página não existe ou não está mais publicada.',
    skipToContent: 'Pular para o conteúdo',
    breadcrumb: 'Trilha de navegação',
  },
  it: {
    helpCenter: 'Centro assistenza',
    heading: 'Come possiamo aiutarti?',
    searchLabel: 'Cerca negli articoli',
    searchButton: 'Cerca',
    articles: 'Articoli',
    noArticles: 'Non è stato ancora pubblicato nessun articolo.',
    results: 'Risultati per «{query}»',
    noResults: 'Nessun articolo corrisponde alla tua ricerca.',
    tooLong: 'Una ricerca può contenere al massimo {max} caratteri. Accorciala e riprova.',
    allArticles: 'Tutti gli articoli',
    stillNeedHelp: 'Hai ancora bisogno di aiuto?',
    chatWithUs: 'Scrivici in chat',
    language: 'Lingua',
    updated: 'Aggiornato il {date}',
    notFound: 'Pagina non trovata',
    notFoundText: 'Questa pagina non esiste o non è più pubblicata.',
    skipToContent: 'Vai al contenuto',
    breadcrumb: 'Percorso di navigazione',
  },
  nl: {
    helpCenter: 'Helpcentrum',
    heading: 'Waarmee kunnen we je helpen?',
    searchLabel: 'Artikelen doorzoeken',
    searchButton: 'Zoeken',
    articles: 'Artikelen',
    noArticles: 'Er zijn hier nog geen artikelen gepubliceerd.',
    results: 'Resultaten voor ‘{query}’',
    noResults: 'Geen enkel artikel past bij je zoekopdracht.',
    tooLong: 'Een zoekopdracht is hoogstens {max} tekens lang. Maak hem korter en probeer het opnieuw.',
    allArticles: 'Alle artikelen',
    stillNeedHelp: 'Nog steeds hulp nodig?',
    chatWithUs: 'Chat met ons',
    language: 'Taal',
    updated: 'Bijgewerkt op {date}',
    notFound: 'Pagina niet gevonden',
    notFoundText: 'Deze pagina bestaat niet of is niet meer gepubliceerd.',
    skipToContent: 'Naar de inhoud',
    breadcrumb: 'Kruimelpad',
  },
  ja: {
    helpCenter: 'ヘルプセンター',
    heading: 'どのようなことでお困りですか？',
    searchLabel: '記事を検索',
    searchButton: '検索',
    articles: '記事',
    noArticles: 'まだ公開されている記事はありません。',
    results: '「{query}」の検索結果',
    noResults: '検索に一致する記事はありません。',
    tooLong: '検索できるのは{max}文字までです。短くしてもう一度お試しください。',
    allArticles: 'すべての記事',
    stillNeedHelp: '解決しませんでしたか？',
    chatWithUs: 'チャットで問い合わせる',
    language: '言語',
    updated: '{date}更新',
    notFound: 'ページが見つかりません',
    notFoundText: 'このページは存在しないか、公開が終了しています。',
    skipToContent: '本文へ移動',
    breadcrumb: 'パンくずリスト',
  },
  'zh-Hans': {
    helpCenter: '帮助中心',
    heading: '有什么可以帮您？',
    searchLabel: '搜索文章',
    searchButton: '搜索',
    articles: '文章',
    noArticles: '这里还没有发布任何文章。',
    results: '“{query}”的搜索结果',
    noResults: '没有与您的搜索匹配的文章。',
    tooLong: '搜索内容最多 {max} 个字符。请缩短后重试。',
    allArticles: '全部文章',
    stillNeedHelp: '仍需帮助？',
    chatWithUs: '和我们聊聊',
    language: '语言',
    updated: '更新于 {date}',
    notFound: '找不到页面',
    notFoundText: '此页面不存在，或已不再发布。',
    skipToContent: '跳到正文',
    breadcrumb: '导航路径',
  },
  ar: {
    helpCenter: 'مركز المساعدة',
    heading: 'كيف يمكننا مساعدتك؟',
    searchLabel: 'ابحث في المقالات',
    searchButton: 'بحث',
    articles: 'المقالات',
    noArticles: 'لم تُنشر أي مقالات هنا بعد.',
    results: 'نتائج البحث عن «{query}»',
    noResults: 'لا توجد مقالات تطابق بحثك.',
    tooLong: 'يمكن أن يتكوّن البحث من {max} حرفًا على الأكثر. اختصره وحاول مرة أخرى.',
    allArticles: 'كل المقالات',
    stillNeedHelp: 'هل ما زلت بحاجة إلى مساعدة؟',
    chatWithUs: 'تحدّث معنا',
    language: 'اللغة',
    updated: 'آخر تحديث: {date}',
    notFound: 'الصفحة غير موجودة',
    notFoundText: 'هذه الصفحة غير موجودة أو لم تعد منشورة.',
    skipToContent: 'انتقل إلى المحتوى',
    breadcrumb: 'مسار التنقل',
  },
  he: {
    helpCenter: 'מרכז העזרה',
    heading: 'איך אפשר לעזור?',
    searchLabel: 'חיפוש במאמרים',
    searchButton: 'חיפוש',
    articles: 'מאמרים',
    noArticles: 'עדיין לא פורסמו כאן מאמרים.',
    results: 'תוצאות עבור "{query}"',
    noResults: 'אין מאמרים שתואמים לחיפוש.',
    tooLong: 'חיפוש יכול להכיל עד {max} תווים. קצרו אותו ונסו שוב.',
    allArticles: 'כל המאמרים',
    stillNeedHelp: 'עדיין צריכים עזרה?',
    chatWithUs: 'דברו איתנו בצ׳אט',
    language: 'שפה',
    updated: 'עודכן ב-{date}',
    notFound: 'הדף לא נמצא',
    notFoundText: 'הדף הזה לא קיים או שכבר לא מפורסם.',
    skipToContent: 'דילוג לתוכן',
    breadcrumb: 'פירורי לחם',
  },
};
